import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, CHECKOUT, ingestPath, KEYS, SEED } from '../receiver/fixtures.js';
import { type ConsoleHarness, curlIngest, signIn, startHarness } from './console-harness.ts';

/* A busy resource tailed in one tab (docs/receiver.md, "Web console"): the view stays bounded
 * and says what left it. */

let harness: ConsoleHarness;

beforeAll(async () => {
  harness = await startHarness(SEED, ADMIN_TOKEN);
});

afterAll(async () => {
  expect(harness.foreignRequests).toEqual([]);
  await harness?.close();
});

describe('web console live tail of a busy resource', () => {
  it('keeps at most 1 000 rows while tailing and says how many older ones left the view', async () => {
    await curlIngest(harness.url, ingestPath(), KEYS.alice, { message: 'first' });
    const page = await harness.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, harness.url, KEYS.alice);
    await page.goto(`${harness.url}/#/r/${CHECKOUT}/logs`);
    await page.locator('table.logs tbody tr').first().waitFor();
    await page.locator('[data-live="live"]').waitFor();
    const burst = Array.from({ length: 1050 }, (_, i) => ({ message: `burst ${i}` }));
    const answer = await curlIngest(harness.url, ingestPath(), KEYS.alice, { logs: burst });
    expect(answer.accepted).toBe(1050);
    await page.getByTestId('evicted').waitFor();
    expect(await page.getByTestId('evicted').textContent()).toMatch(
      /^51 older records left this view/,
    );
    const rows = page.locator('table.logs tbody tr');
    expect(await rows.count()).toBe(1000);
    expect(await rows.first().textContent()).toContain('burst 1049');
    // Paging on would skip what left the view: "Load older" is gone until the next listing.
    expect(await page.getByRole('button', { name: 'Load older' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
