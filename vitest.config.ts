import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const shared = {
  restoreMocks: true,
  unstubEnvs: true,
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

/** One project per test layer (docs/testing.md, "Test projects"); `npm test` runs them all. */
function project(name: string, include: string[]): TestProjectInlineConfiguration {
  return { test: { ...shared, name, include } };
}

export default defineConfig({
  test: {
    projects: [
      // Pure modules, no sockets and no processes.
      project('unit', ['test/unit/**/*.test.ts']),
      // The exporter and the SDK's processors against real HTTP servers on port 0.
      project('component', ['test/component/**/*.test.ts', 'test/e2e/**/*.test.ts']),
      // The reference receiver through app.inject() and real sockets.
      project('receiver', ['test/receiver/**/*.test.ts']),
      // Processes killed and restarted, fault proxies, hostile input, fuzzing, secrets.
      project('reliability', ['test/reliability/**/*.test.ts']),
      // What a user copies or runs: examples, README snippets, older SDKs, the bench.
      project('examples', [
        'test/examples/**/*.test.ts',
        'test/docs/**/*.test.ts',
        'test/compat/**/*.test.ts',
        'test/bench/**/*.test.ts',
      ]),
      // The receiver's web console in Debian's Chromium, driven by playwright-core; the global
      // setup builds the console's assets first.
      {
        test: {
          ...shared,
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
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
