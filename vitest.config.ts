import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    restoreMocks: true,
    unstubEnvs: true,
    testTimeout: 20_000,
    hookTimeout: 120_000,
  },
});
