import { configDefaults, defineConfig } from 'vitest/config';

const shared = {
  restoreMocks: true,
  unstubEnvs: true,
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/integration/**'],
        },
      },
      {
        // Against the receiver in a container (docs/testing.md). The global setup builds the
        // image once per run, or reports loudly that there is no Docker engine and the suite
        // is skipped (a failure instead with RESLOG_REQUIRE_DOCKER=1).
        test: {
          ...shared,
          name: 'integration',
          include: ['test/integration/**/*.int.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
