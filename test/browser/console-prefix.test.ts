import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, CHECKOUT, KEYS, SEED } from '../receiver/fixtures.js';
import { type ConsoleHarness, curlIngest, signIn, startHarness } from './console-harness.ts';

/* A receiver with a path prefix (docs/receiver.md, "Path prefix"): the console stays at the
 * root and sends its API calls under the prefix. */

let harness: ConsoleHarness;

beforeAll(async () => {
  harness = await startHarness(SEED, ADMIN_TOKEN, { pathPrefix: '/DevTools' });
});

afterAll(async () => {
  expect(harness.foreignRequests).toEqual([]);
  await harness?.close();
});

describe('web console under a path prefix', () => {
  it('is served at the root and reads and tails through the prefix', async () => {
    const page = await harness.newPage();
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api') || path.includes('/u/')) apiCalls.push(path);
    });
    await signIn(page, harness.url, KEYS.alice);
    await page.locator('tr[data-resource="checkout-api"]').waitFor();
    await page.goto(`${harness.url}/#/r/${CHECKOUT}/logs`);
    await page.locator('[data-live="live"]').waitFor();
    await curlIngest(harness.url, `/DevTools/u/alice/resources/${CHECKOUT}/logs/`, KEYS.alice, {
      level: 'info',
      message: 'through the prefix',
    });
    await page.getByText('through the prefix').waitFor({ timeout: 1000 });
    expect(apiCalls.length).toBeGreaterThan(0);
    expect(apiCalls.every((path) => path.startsWith('/DevTools/'))).toBe(true);
    await page.close();
  });
});
