import { afterEach } from 'vitest';

/** Resource UUIDs the component tests route to (the ones of examples/seed.json). */
export const CHECKOUT = '6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c';
export const BILLING = '0b7c5a2e-1d3f-4e6a-8b9c-0d1e2f3a4b5c';

interface Running {
  exporter?: { shutdown(): Promise<void> } | undefined;
  server?: { close(): Promise<void> } | undefined;
}

/**
 * After each test, shuts down the exporter and closes the server the test left in its
 * variables (read through `current`, since each test assigns new ones). Shutting an exporter
 * down twice is harmless, so a test that creates none leaves nothing to reset.
 */
export function cleanUpAfterEach(current: () => Running): void {
  afterEach(async () => {
    const { exporter, server } = current();
    await exporter?.shutdown();
    await server?.close();
  });
}
