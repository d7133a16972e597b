import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReceiverOptions } from '../../src/receiver/index.js';
import { verifyWebhook } from '../../src/receiver/monitor/webhook-signature.js';
import { api, inbox, type Sink, startSink, waitFor } from './api-fixtures.js';
import { admin, CHECKOUT, KEYS, post, receiver } from './fixtures.js';

const T0 = Date.parse('2026-11-21T00:00:00Z');
const settingsPath = `/api/resources/${CHECKOUT}/notification-settings`;
const healthPath = `/api/resources/${CHECKOUT}/health`;
const WINDOW = 60_000;

describe('monitor notifications: fan-out, coalescing, signed webhooks', () => {
  let app: FastifyInstance;
  let sink: Sink;
  let now = T0;
  const build = (options: ReceiverOptions = {}) =>
    receiver({
      clock: () => now,
      notifications: { pollMillis: 5, webhookRetryDelaysMillis: [100, 200] },
      ...options,
    });
  beforeEach(async () => {
    now = T0;
    sink = await startSink();
    app = build();
  });
  afterEach(async () => {
    await app.close();
    await sink.close();
  });

  const secretOf = async (key: string) =>
    (await api(app, 'GET', '/api/me', key)).json().webhook_secret as string;
  const hooksFor = (who: string) => sink.received.filter((r) => r.path === `/${who}`);
  const settle = () => {
    app.receiver.monitor.flush();
  };

  it('fans each event out by every member’s own settings: inbox and signed webhook', async () => {
    await api(app, 'PUT', `/api/resources/${CHECKOUT}/collaborators/mallory`, KEYS.alice, {
      role: 'viewer',
    });
    const put = (key: string, body: object) => api(app, 'PUT', settingsPath, key, body);
    await put(KEYS.alice, { log_alert_level: 'critical', webhook_url: `${sink.url}/alice` });
    await put(KEYS.bob, {
      enabled: true,
      health_changes: false,
      log_alert_level: 'warning',
      webhook_url: `${sink.url}/bob`,
    });
    await put(KEYS.mallory, { enabled: false, webhook_url: `${sink.url}/mallory` });
    // carol keeps the defaults: health changes, log alerts at error, no webhook.

    const batch = {
      logs: [
        { level: 'info', message: 'fine' },
        { level: 'warn', message: 'w1' },
        { level: 'error', message: 'e1' },
        { level: 'fatal', message: 'c1' },
        { level: 'error', message: 'e2' },
      ],
    };
    expect((await post(app, batch)).statusCode).toBe(202);
    settle();
    const alert = async (key: string) =>
      (await inbox(app, key)).filter((n) => n.kind === 'log_alert').map((n) => n.log_alert);
    expect(await alert(KEYS.alice)).toEqual([
      expect.objectContaining({ level: 'critical', count: 1, first_message: 'c1' }),
    ]);
    expect(await alert(KEYS.bob)).toEqual([
      expect.objectContaining({ level: 'warning', count: 4, first_message: 'w1' }),
    ]);
    expect(await alert(KEYS.carol)).toEqual([
      expect.objectContaining({
        level: 'error',
        count: 3,
        first_message: 'e1',
        first_level: 'error',
      }),
    ]);
    expect(await inbox(app, KEYS.mallory)).toEqual([]);

    now += 1000;
    expect(
      (await api(app, 'PUT', healthPath, KEYS.bob, { state: 'down', reason: 'db gone' })).json()
        .changed,
    ).toBe(true);
    const health = async (key: string) =>
      (await inbox(app, key)).filter((n) => n.kind === 'health_change').map((n) => n.health);
    const expected = {
      from: 'unknown',
      to: 'down',
      reason: 'db gone',
      source: 'manual',
      actor: 'bob',
    };
    expect(await health(KEYS.alice)).toEqual([expect.objectContaining(expected)]);
    expect(await health(KEYS.carol)).toEqual([expect.objectContaining(expected)]);
    expect(await health(KEYS.bob)).toEqual([]);
    expect(await health(KEYS.mallory)).toEqual([]);

    // Health webhooks go out at once; only alice asked for one.
    const [aliceHealth] = await waitFor(() => hooksFor('alice').length === 1 && hooksFor('alice'));
    expect(aliceHealth?.json).toMatchObject({
      event: 'health_change',
      recipient: 'alice',
      resource: { uuid: CHECKOUT, key: 'checkout-api', owner: 'alice' },
      health: expected,
    });
    expect(aliceHealth?.headers['x-reslog-event']).toBe('health_change');
    expect(aliceHealth?.headers['x-reslog-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(
      verifyWebhook(
        await secretOf(KEYS.alice),
        aliceHealth?.body ?? '',
        aliceHealth?.headers['x-reslog-signature'] as string,
      ),
    ).toBe(true);
    expect(
      verifyWebhook(
        await secretOf(KEYS.bob),
        aliceHealth?.body ?? '',
        aliceHealth?.headers['x-reslog-signature'] as string,
      ),
    ).toBe(false);

    // Log-alert webhooks carry the final count: they leave when the window closes.
    expect(hooksFor('bob')).toEqual([]);
    now = T0 + WINDOW;
    await waitFor(() => hooksFor('bob').length === 1 && hooksFor('alice').length === 2);
    const bobHook = hooksFor('bob')[0];
    expect(bobHook?.json).toMatchObject({
      event: 'log_alert',
      recipient: 'bob',
      log_alert: { count: 4, first_message: 'w1' },
    });
    expect(
      verifyWebhook(
        await secretOf(KEYS.bob),
        bobHook?.body ?? '',
        bobHook?.headers['x-reslog-signature'] as string,
      ),
    ).toBe(true);
    expect(hooksFor('alice')[1]?.json).toMatchObject({
      event: 'log_alert',
      log_alert: { count: 1, first_message: 'c1' },
    });
    expect(hooksFor('mallory')).toEqual([]);
    expect(sink.received).toHaveLength(3);
    // The outcome is recorded on the notification.
    const [bobAlert] = await waitFor(async () => {
      const list = await inbox(app, KEYS.bob);
      return list[0]?.webhook.state === 'delivered' && list;
    });
    expect(bobAlert?.webhook).toMatchObject({
      state: 'delivered',
      attempts: 1,
      last_status: 200,
      url: `${sink.url}/bob`,
    });
    expect((await inbox(app, KEYS.carol)).every((n) => n.webhook === null)).toBe(true);
  });

  it('coalesces log alerts per member and resource within the window', async () => {
    await api(app, 'PUT', settingsPath, KEYS.carol, { webhook_url: `${sink.url}/carol` });
    for (const message of ['first', 'second', 'third']) {
      expect((await post(app, { level: 'error', message })).statusCode).toBe(202);
      settle();
      now += 10_000;
    }
    let alerts = await inbox(app, KEYS.carol);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.log_alert).toMatchObject({
      count: 3,
      first_message: 'first',
      window_ends_at: new Date(T0 + WINDOW).toISOString(),
    });
    now = T0 + WINDOW; // the window is closed: a new alert opens a new notification
    await post(app, { level: 'critical', message: 'later' });
    settle();
    alerts = await inbox(app, KEYS.carol);
    expect(alerts.map((n) => [n.log_alert.count, n.log_alert.first_message])).toEqual([
      [1, 'later'],
      [3, 'first'],
    ]);
    const [first] = await waitFor(() => hooksFor('carol').length >= 1 && hooksFor('carol'));
    expect(first?.json).toMatchObject({ log_alert: { count: 3, first_message: 'first' } });
    expect(hooksFor('carol')).toHaveLength(1); // the second window is still open
  });

  it('a removed collaborator gets nothing from the moment of removal, queued webhooks included', async () => {
    await api(app, 'PUT', settingsPath, KEYS.bob, {
      enabled: true,
      webhook_url: `${sink.url}/bob`,
    });
    await post(app, { level: 'error', message: 'before removal' });
    settle();
    expect(await inbox(app, KEYS.bob)).toHaveLength(1); // its webhook waits for the window
    expect(
      (await api(app, 'DELETE', `/api/resources/${CHECKOUT}/collaborators/bob`, KEYS.alice))
        .statusCode,
    ).toBe(204);
    expect((await api(app, 'GET', '/api/notifications', KEYS.bob)).json().notifications).toEqual(
      [],
    );
    await post(app, { level: 'error', message: 'after removal' });
    settle();
    await api(app, 'PUT', healthPath, KEYS.alice, { state: 'degraded' });
    await api(app, 'PUT', settingsPath, KEYS.carol, { webhook_url: `${sink.url}/carol` });
    await api(app, 'PUT', healthPath, KEYS.alice, { state: 'down' });
    now = T0 + WINDOW;
    // carol's webhook for the second change proves the worker ran past bob's due time.
    await waitFor(() => hooksFor('carol').length >= 1);
    await waitFor(() => app.receiver.store.notifications.pendingDeliveries() === 0);
    expect(hooksFor('bob')).toEqual([]);
    expect(await inbox(app, KEYS.bob)).toEqual([]);
    // Re-shared: defaults again (the old settings went with the membership).
    await api(app, 'PUT', `/api/resources/${CHECKOUT}/collaborators/bob`, KEYS.alice, {
      role: 'viewer',
    });
    expect((await api(app, 'GET', settingsPath, KEYS.bob)).json()).toEqual({
      enabled: true,
      health_changes: true,
      log_alert_level: 'error',
      webhook_url: null,
    });
  });

  it('retries failed webhooks with backoff, gives up on 4xx and after the last retry', async () => {
    await api(app, 'PUT', settingsPath, KEYS.alice, { webhook_url: `${sink.url}/alice` });
    sink.failNext(503, 500);
    await api(app, 'PUT', healthPath, KEYS.alice, { state: 'degraded' });
    await waitFor(() => sink.attempts.length === 1);
    const view = async () => (await inbox(app, KEYS.alice))[0]?.webhook;
    await waitFor(async () => (await view())?.attempts === 1);
    expect(await view()).toMatchObject({
      state: 'pending',
      attempts: 1,
      last_status: 503,
      last_error: 'answered 503',
      next_attempt_at: new Date(T0 + 100).toISOString(),
    });
    now += 99;
    app.receiver.webhooks.kick();
    expect(sink.attempts).toHaveLength(1); // not due yet
    now += 1;
    // Wait until the receiver recorded the second failure, not just until the sink saw it: the
    // third attempt is due 200 ms after that record, on the clock as it is then.
    await waitFor(async () => (await view())?.attempts === 2);
    expect(sink.attempts).toHaveLength(2);
    now += 200;
    await waitFor(() => sink.received.length === 1);
    expect(sink.attempts.map((a) => a.headers['x-reslog-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(sink.attempts.map((a) => a.headers['x-reslog-delivery'])).size).toBe(1);
    await waitFor(async () => (await view())?.state === 'delivered');
    expect(await view()).toMatchObject({ attempts: 3, last_status: 200, last_error: null });

    sink.failNext(410);
    await api(app, 'PUT', healthPath, KEYS.alice, { state: 'down' });
    await waitFor(async () => (await view())?.state === 'failed');
    expect(await view()).toMatchObject({ attempts: 1, last_status: 410 });

    sink.failNext(503, 503, 503);
    await api(app, 'PUT', healthPath, KEYS.alice, { state: 'healthy' });
    await waitFor(async () => (await view())?.attempts === 1);
    now += 100;
    await waitFor(async () => (await view())?.attempts === 2);
    now += 200;
    await waitFor(async () => (await view())?.state === 'failed');
    expect(await view()).toMatchObject({ attempts: 3, last_status: 503, next_attempt_at: null });
  });

  it('never writes the API key or the webhook secret to logs, the journal or error answers', async () => {
    await app.close();
    let output = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        output += String(chunk);
        done();
      },
    });
    app = build({ logger: { level: 'trace', stream } });
    await api(app, 'PUT', settingsPath, KEYS.alice, { webhook_url: `${sink.url}/alice` });
    sink.failNext(500, 500, 500);
    const secret = await secretOf(KEYS.alice);
    await api(app, 'PUT', healthPath, KEYS.alice, { state: 'down' });
    await waitFor(() => sink.attempts.length === 1);
    await waitFor(() => output.includes('webhook delivery failed'));
    const journal = await app.inject({ url: '/_receiver/requests', headers: admin });
    for (const text of [output, journal.body]) {
      expect(text).not.toContain(KEYS.alice);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(sink.url); // webhook URLs may carry tokens of their own
    }
    expect(journal.body).toContain('[REDACTED]'); // the key header was there, redacted
  });
});

describe('persistence across a restart with a file database', () => {
  let dir: string;
  let sink: Sink;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'reslog-notify-'));
    sink = await startSink();
  });
  afterEach(async () => {
    await sink.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps settings, notifications and pending webhooks, and delivers them after the restart', async () => {
    let now = T0;
    const db = join(dir, 'receiver.db');
    const options: ReceiverOptions = {
      db,
      clock: () => now,
      notifications: { pollMillis: 5, webhookRetryDelaysMillis: [30_000] },
    };
    let app = receiver(options);
    await api(app, 'PUT', settingsPath, KEYS.carol, {
      log_alert_level: 'warning',
      webhook_url: `${sink.url}/carol`,
    });
    sink.failNext(503);
    await api(app, 'PUT', healthPath, KEYS.alice, { state: 'down' });
    await waitFor(() => sink.attempts.length === 1); // failed once, retry due in 30 s
    await post(app, { level: 'warning', message: 'disk 91%' }); // webhook due at window end
    await waitFor(async () => (await inbox(app, KEYS.carol)).length === 2);
    const before = await inbox(app, KEYS.carol);
    await waitFor(async () => (await inbox(app, KEYS.carol))[1]?.webhook.attempts === 1);
    await app.close();
    expect(sink.received).toEqual([]);

    now = T0 + WINDOW;
    app = receiver(options);
    try {
      expect((await api(app, 'GET', settingsPath, KEYS.carol)).json()).toMatchObject({
        log_alert_level: 'warning',
        webhook_url: `${sink.url}/carol`,
      });
      await waitFor(() => sink.received.length === 2);
      expect(
        sink.received.map((r) => [r.json.event, r.headers['x-reslog-attempt']]).sort(),
      ).toEqual([
        ['health_change', '2'],
        ['log_alert', '1'],
      ]);
      const after = await inbox(app, KEYS.carol);
      expect(after.map((n) => n.id)).toEqual(before.map((n) => n.id));
      await waitFor(async () =>
        (await inbox(app, KEYS.carol)).every((n) => n.webhook.state === 'delivered'),
      );
      // The seed is applied again at start but does not undo carol's own choice.
      expect((await api(app, 'GET', settingsPath, KEYS.carol)).json().log_alert_level).toBe(
        'warning',
      );
    } finally {
      await app.close();
    }
  });
});
