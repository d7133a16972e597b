import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../src/receiver/http/routes/console-routes.js';
import {
  ADMIN_TOKEN,
  BILLING,
  BOB_PRIVATE,
  CHECKOUT,
  ingestPath,
  KEYS,
  post,
  SEED,
} from '../receiver/fixtures.js';
import { type ConsoleHarness, curlIngest, signIn, startHarness } from './console-harness.ts';

let harness: ConsoleHarness;
const pages: Page[] = [];
/** Script errors and Content-Security-Policy violations of the current test's pages. */
let problems: string[] = [];

async function openPage(): Promise<Page> {
  const page = await harness.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console error: ${message.text()}`);
    }
  });
  pages.push(page);
  return page;
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
/** A team resource besides the seed's: alice is a viewer of team devops, which owns it. */
const PLATFORM = '1a2b3c4d-0000-4000-8000-000000000001';
const TEAM_SEED = {
  ...(SEED as Record<string, unknown>),
  teams: [{ name: 'devops', members: [{ username: 'alice', role: 'viewer' }] }],
  resources: [
    ...(SEED as { resources: unknown[] }).resources,
    { team: 'devops', uuid: PLATFORM, key: 'platform-api', name: 'Platform API' },
  ],
};

beforeAll(async () => {
  harness = await startHarness(TEAM_SEED, ADMIN_TOKEN);
  const ingest = await post(harness.app, {
    sdk: 'python',
    resource: { 'service.name': 'checkout', 'deployment.environment': 'staging' },
    logs: [
      { ts: '2026-11-23T01:00:00Z', level: 'debug', message: 'cache warm', logger: 'cache' },
      { ts: '2026-11-23T01:00:01Z', level: 'info', message: 'order placed', logger: 'orders' },
      {
        ts: '2026-11-23T01:00:02Z',
        level: 'warning',
        message: 'payment slow',
        logger: 'payments',
      },
      {
        ts: '2026-11-23T01:00:03Z',
        level: 'error',
        message: 'payment failed',
        logger: 'payments',
        trace_id: TRACE,
        span_id: '00f067aa0ba902b7',
        attributes: { 'http.status_code': 502, provider: 'acme-pay' },
        extra: { order_id: 'A-1042', retry: 3 },
      },
      { ts: '2026-11-23T01:00:04Z', level: 'alert', message: 'refunds piling up' },
      { ts: '2026-11-23T01:00:05Z', level: 'critical', message: 'checkout down' },
    ],
  });
  expect(ingest.statusCode).toBe(202);
});

afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
  // No script error and no CSP violation (Chromium reports those as console errors).
  expect(problems).toEqual([]);
  problems = [];
});

afterAll(async () => {
  expect(harness.foreignRequests).toEqual([]);
  await harness?.close();
});

/** The levels of the rows in the log table, top to bottom. */
function rowLevels(page: Page): Promise<string[]> {
  return page.locator('table.logs tbody .level').allTextContents();
}

async function openLogs(page: Page, uuid = CHECKOUT) {
  await page.goto(`${harness.url}/#/r/${uuid}/logs`);
  try {
    await page.locator('table.logs tbody tr').first().waitFor();
  } catch (error) {
    throw new Error(`no logs shown; the page says: ${await page.locator('main').textContent()}`, {
      cause: error,
    });
  }
}

describe('web console in Chromium', () => {
  it('serves the page with the Content-Security-Policy and hardening headers', async () => {
    const page = await openPage();
    const response = await page.goto(`${harness.url}/`);
    const headers = response?.headers() ?? {};
    expect(response?.status()).toBe(200);
    expect(headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
  });

  it('signs in with an API key kept in sessionStorage, never in the URL, and signs out', async () => {
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    await expect.poll(() => page.getByTestId('who').textContent()).toBe('alice');
    expect(page.url()).not.toContain(KEYS.alice);
    const stored = await page.evaluate(() => ({
      session: JSON.stringify(sessionStorage),
      local: localStorage.length,
      cookies: (globalThis as unknown as { document: { cookie: string } }).document.cookie,
    }));
    expect(stored.session).toContain(KEYS.alice);
    expect(stored.local).toBe(0);
    expect(stored.cookies).toBe('');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('refuses a wrong key with a message', async () => {
    const page = await openPage();
    await page.goto(`${harness.url}/`);
    await page.locator('input[name="secret"]').fill('not-a-key-0000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This API key is not valid.').waitFor();
  });

  it('lists the resources the key may see, each with its health', async () => {
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    const rows = page.locator('table.resources tbody tr');
    await rows.first().waitFor();
    expect(await page.locator('table.resources tbody tr').count()).toBe(3);
    const checkout = page.locator('tr[data-resource="checkout-api"]');
    expect(await checkout.getByRole('link').textContent()).toBe('Checkout API');
    expect(await checkout.locator('[data-health]').textContent()).toBe('unknown');
    const platform = page.locator('tr[data-resource="platform-api"]');
    expect(await platform.textContent()).toContain('team devops');
    expect(await platform.textContent()).toContain('viewer');
    expect(await page.locator('tr[data-resource="bob-private"]').count()).toBe(0);
  });

  it("reads a team resource's logs through its /team/ path", async () => {
    const ingest = await post(
      harness.app,
      { level: 'info', message: 'deployed platform 4.2' },
      { path: `/team/devops/resources/${PLATFORM}/logs/`, key: KEYS.alice },
    );
    // alice is only a viewer of the team: she may read, not write.
    expect(ingest.statusCode).toBe(403);
    const admin = await harness.app.inject({
      method: 'POST',
      url: '/_receiver/seed',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { teams: [{ name: 'devops', members: [{ username: 'bob', role: 'editor' }] }] },
    });
    expect(admin.statusCode).toBe(200);
    const written = await post(
      harness.app,
      { level: 'info', message: 'deployed platform 4.2' },
      { path: `/team/devops/resources/${PLATFORM}/logs/`, key: KEYS.bob },
    );
    expect(written.statusCode).toBe(202);
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    await openLogs(page, PLATFORM);
    await page.getByText('deployed platform 4.2').waitFor();
    expect(await page.locator('.resource-header').textContent()).toContain(
      'team devops/platform-api',
    );
  });

  it('shows a record ingested with curl without a reload, within 1 s of its 202', async () => {
    const page = await openPage();
    await signIn(page, harness.url, KEYS.bob);
    await openLogs(page);
    await page.locator('[data-live="live"]').waitFor();
    let reloaded = false;
    page.on('framenavigated', () => {
      reloaded = true;
    });
    const message = `live record ${Date.now()}`;
    const answer = await curlIngest(harness.url, ingestPath(), KEYS.bob, {
      level: 'warning',
      message,
      logger: 'curl',
    });
    expect(answer.accepted).toBe(1);
    const acknowledged = Date.now();
    const row = page.locator('table.logs tbody tr').first();
    await row.getByText(message).waitFor({ timeout: 1000 });
    expect(Date.now() - acknowledged).toBeLessThanOrEqual(1000);
    expect(reloaded).toBe(false);
  });

  it('ends its follow stream when the filters change and when signing out', async () => {
    const followers = async () => {
      const metrics = await harness.app.inject({ url: '/metrics' });
      return Number(/^reslog_receiver_followers (\d+)$/m.exec(metrics.body)?.[1]);
    };
    await expect.poll(followers).toBe(0);
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    await openLogs(page);
    await page.locator('[data-live="live"]').waitFor();
    await expect.poll(followers).toBe(1);
    await page.locator('select[name="level"]').selectOption('warning');
    // A record through the new stream: it is open, and the old one must have ended.
    await expect.poll(() => rowLevels(page)).not.toContain('info');
    await page.locator('[data-live="live"]').waitFor();
    await curlIngest(harness.url, ingestPath(), KEYS.alice, {
      level: 'warning',
      message: 'through the new stream',
    });
    await page.getByText('through the new stream').waitFor();
    await expect.poll(followers).toBe(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(followers).toBe(0);
  });

  it('filters by minimum level on the server, in the service order (alert between error and critical)', async () => {
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    await openLogs(page);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));

    await page.locator('select[name="level"]').selectOption('error');
    await expect.poll(() => rowLevels(page)).toEqual(['critical', 'alert', 'error']);
    expect(requests.some((url) => /[?&]level=error(&|$)/.test(url))).toBe(true);

    await page.locator('select[name="level"]').selectOption('critical');
    await expect.poll(() => rowLevels(page)).toEqual(['critical']);

    await page.locator('select[name="level"]').selectOption('');
    await page.locator('input[name="q"]').fill('PAYMENT');
    await page.locator('input[name="q"]').press('Enter');
    await expect.poll(() => rowLevels(page)).toEqual(['error', 'warning']);
    expect(requests.some((url) => /[?&]q=PAYMENT(&|$)/.test(url))).toBe(true);
  });

  it('filters by logger and by a time range (since inclusive, until exclusive, in UTC)', async () => {
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    await openLogs(page);
    await page.locator('input[name="logger"]').fill('payments');
    await page.locator('input[name="logger"]').press('Enter');
    await expect.poll(() => rowLevels(page)).toEqual(['error', 'warning']);

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.locator('input[name="since"]').fill('2026-11-23T01:00:01');
    await page.locator('input[name="until"]').fill('2026-11-23T01:00:04');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => rowLevels(page)).toEqual(['error', 'warning', 'info']);
  });

  it('applies the filters to the live tail too, and follows the new ones when they change', async () => {
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    await openLogs(page);
    await page.locator('select[name="level"]').selectOption('error');
    await expect.poll(() => rowLevels(page)).toEqual(['critical', 'alert', 'error']);
    await page.locator('[data-live="live"]').waitFor();
    const tag = Date.now();
    for (const level of ['info', 'error']) {
      await curlIngest(harness.url, ingestPath(), KEYS.alice, {
        level,
        message: `filtered live ${level} ${tag}`,
      });
    }
    await page.getByText(`filtered live error ${tag}`).waitFor({ timeout: 1000 });
    expect(await page.getByText(`filtered live info ${tag}`).count()).toBe(0);

    // New filters: the old stream is aborted and a new one follows them.
    await page.locator('select[name="level"]').selectOption('debug');
    await page.getByText(`filtered live info ${tag}`).waitFor();
    await page.locator('[data-live="live"]').waitFor();
    await curlIngest(harness.url, ingestPath(), KEYS.alice, {
      level: 'debug',
      message: `after the change ${tag}`,
    });
    await page.getByText(`after the change ${tag}`).waitFor({ timeout: 1000 });
    expect(await page.locator('table.logs td.message', { hasText: `${tag}` }).count()).toBe(3);
  });

  it("opens a record's detail with its extra, attributes, resource and trace context", async () => {
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    await openLogs(page);
    await page.locator('table.logs tbody tr', { hasText: 'payment failed' }).click();
    const detail = page.getByRole('complementary', { name: 'Record detail' });
    await detail.waitFor();
    expect(await detail.getByRole('region', { name: 'Extra' }).textContent()).toContain(
      '"order_id": "A-1042"',
    );
    expect(await detail.getByRole('region', { name: 'Attributes' }).textContent()).toContain(
      '"provider": "acme-pay"',
    );
    expect(await detail.getByRole('region', { name: 'Resource' }).textContent()).toContain(
      '"deployment.environment": "staging"',
    );
    const trace = detail.getByRole('region', { name: 'Trace context' });
    expect(await trace.textContent()).toContain(TRACE);
    expect(await trace.textContent()).toContain('00f067aa0ba902b7');
    await detail.getByRole('button', { name: 'Copy record JSON' }).waitFor();

    // "Show this trace" filters the listing by the record's trace id.
    await trace.getByRole('button', { name: 'Show this trace' }).click();
    await expect.poll(() => rowLevels(page)).toEqual(['error']);
    expect(await page.locator('input[name="trace_id"]').inputValue()).toBe(TRACE);
  });

  it("a viewer key cannot see another user's resource", async () => {
    const page = await openPage();
    await signIn(page, harness.url, KEYS.carol);
    await page.locator('table.resources tbody tr').first().waitFor();
    expect(await page.locator('tr[data-resource="checkout-api"]').count()).toBe(1);
    expect(await page.locator('tr[data-resource="bob-private"]').count()).toBe(0);
    expect(await page.locator('tr[data-resource="billing-worker"]').count()).toBe(0);
    expect(await page.locator('tr[data-resource="platform-api"]').count()).toBe(0);
    for (const uuid of [BOB_PRIVATE, BILLING, PLATFORM]) {
      await page.goto(`${harness.url}/#/r/${uuid}/logs`);
      await page.getByText('No resource with this UUID is visible to you.').waitFor();
      expect(await page.locator('table.logs').count()).toBe(0);
    }
  });

  it('renders hostile messages as inert text', async () => {
    const hostile = [
      '<script>window.__pwned=1</script>',
      '<img src=x onerror="window.__pwned=1">',
      '<svg onload="window.__pwned=1"></svg>',
    ];
    for (const message of hostile) {
      const answer = await curlIngest(harness.url, ingestPath(), KEYS.alice, {
        level: 'error',
        message,
        logger: '<b onmouseover="window.__pwned=1">x</b>',
        attributes: { html: '<img src=x onerror="window.__pwned=1">' },
      });
      expect(answer.accepted).toBe(1);
    }
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    await openLogs(page);
    for (const message of hostile) {
      const cell = page.locator('table.logs td.message', { hasText: message }).first();
      await cell.waitFor();
      expect(await cell.textContent()).toBe(message);
    }
    await page.locator('table.logs tbody tr', { hasText: hostile[1] }).first().click();
    const detail = page.getByRole('complementary', { name: 'Record detail' });
    expect(await detail.locator('.detail-message').textContent()).toBe(hostile[1]);
    await page.locator('table.logs td.col-logger').first().hover();
    expect(await page.locator('table.logs img, table.logs script, table.logs svg').count()).toBe(0);
    expect(
      await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned),
    ).toBeUndefined();
  });

  it('loads older records page by page with next_cursor', async () => {
    const logs = Array.from({ length: 130 }, (_, i) => ({
      ts: new Date(Date.UTC(2026, 10, 22, 12, 0, i)).toISOString(),
      level: 'info',
      message: `batch record ${String(i).padStart(3, '0')}`,
    }));
    expect((await post(harness.app, { logs }, { path: ingestPath(BILLING) })).statusCode).toBe(202);
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    await openLogs(page, BILLING);
    const rows = page.locator('table.logs tbody tr');
    await expect.poll(() => rows.count()).toBe(100);
    await page.getByRole('button', { name: 'Load older' }).click();
    await expect.poll(() => rows.count()).toBe(130);
    expect(await page.getByRole('button', { name: 'Load older' }).count()).toBe(0);
    expect(await page.locator('table.logs td.message').last().textContent()).toBe(
      'batch record 000',
    );
  });

  it('shows health history, notifications and collaborators', async () => {
    for (const state of ['degraded', 'healthy']) {
      const response = await harness.app.inject({
        method: 'PUT',
        url: `/api/resources/${CHECKOUT}/health`,
        headers: { 'x-api-key': KEYS.alice },
        payload: { state, reason: `went ${state}` },
      });
      expect(response.statusCode).toBe(200);
    }
    const page = await openPage();
    await signIn(page, harness.url, KEYS.alice);
    await page.goto(`${harness.url}/#/r/${CHECKOUT}/health`);
    await page.getByText('went degraded').waitFor();
    await page.getByText('went healthy').waitFor();

    await page.goto(`${harness.url}/#/r/${CHECKOUT}/notifications`);
    await page.getByRole('form', { name: 'Notification settings' }).waitFor();
    await page.locator('.notifications li').first().waitFor();

    await page.goto(`${harness.url}/#/r/${CHECKOUT}/collaborators`);
    await page.getByRole('cell', { name: 'carol' }).waitFor();
  });

  it('signs in with the admin token and sees and reads every resource', async () => {
    const page = await openPage();
    await signIn(page, harness.url, ADMIN_TOKEN, 'admin');
    await page.locator('tr[data-resource="bob-private"]').waitFor();
    expect(await page.locator('table.resources tbody tr').count()).toBe(4);
    expect(await page.getByTestId('who').textContent()).toBe('admin (all resources)');
    expect(await page.getByRole('link', { name: 'Inbox' }).count()).toBe(0);
    await openLogs(page, CHECKOUT);
    await page.locator('[data-live="live"]').waitFor();
    await curlIngest(harness.url, ingestPath(), KEYS.alice, {
      level: 'info',
      message: 'seen by the admin',
    });
    await page.getByText('seen by the admin').waitFor({ timeout: 1000 });
    await openLogs(page, PLATFORM);
    await page.goto(`${harness.url}/#/r/${CHECKOUT}/health`);
    await page.getByText('History').waitFor();
  });

  it('refuses a wrong admin token', async () => {
    const page = await openPage();
    await page.goto(`${harness.url}/`);
    await page.getByLabel('the admin token').check();
    await page.locator('input[name="secret"]').fill('not-the-admin-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This admin token is not valid.').waitFor();
  });
});
