import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResourceLogExporter } from '../../src/index.js';
import { verifyWebhook } from '../../src/receiver/monitor/webhook-signature.js';
import { api, inbox, type Sink, startSink, waitFor } from './api-fixtures.js';
import { admin, KEYS, receiver } from './fixtures.js';

/**
 * Notifications end to end (docs/receiver.md, "Notifications"): alice owns a resource, shares
 * it with bob (editor) and carol (viewer); each sets different preferences; the exporter ships
 * error logs and a health change happens: each inbox and webhook gets exactly what its
 * owner's settings say.
 */
describe('end to end: one resource, three members, three different preferences', () => {
  let app: FastifyInstance;
  let sink: Sink;
  let url: string;
  let now = Date.parse('2026-11-21T00:00:00Z');
  beforeEach(async () => {
    sink = await startSink();
    app = receiver({
      seed: {
        accounts: ['alice', 'bob', 'carol'].map((u) => ({
          username: u,
          api_keys: [KEYS[u as 'alice']],
        })),
      },
      clock: () => now,
      notifications: { pollMillis: 5, coalesceWindowMillis: 60_000 },
    });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await app.close();
    await sink.close();
  });

  it('delivers to each inbox and webhook exactly what its settings ask for', async () => {
    const created = await api(app, 'POST', '/api/resources', KEYS.alice, { name: 'Payments API' });
    const { uuid, key } = created.json();
    expect(key).toBe('payments-api');
    const base = `/api/resources/${uuid}`;
    await api(app, 'PUT', `${base}/collaborators/bob`, KEYS.alice, { role: 'editor' });
    await api(app, 'PUT', `${base}/collaborators/carol`, KEYS.alice, { role: 'viewer' });
    // alice: everything at error and above, by webhook too.
    await api(app, 'PUT', `${base}/notification-settings`, KEYS.alice, {
      webhook_url: `${sink.url}/alice`,
    });
    // bob: only critical logs, no health changes, webhook.
    await api(app, 'PUT', `${base}/notification-settings`, KEYS.bob, {
      health_changes: false,
      log_alert_level: 'critical',
      webhook_url: `${sink.url}/bob`,
    });
    // carol: health changes only, in the inbox.
    await api(app, 'PUT', `${base}/notification-settings`, KEYS.carol, { log_alert_level: null });

    const exporter = new ResourceLogExporter({
      baseUrl: url,
      apiKey: KEYS.bob,
      username: 'alice',
      routes: [{ match: { 'service.name': 'payments' }, key: 'payments-api' }],
    });
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ 'service.name': 'payments' }),
      processors: [new BatchLogRecordProcessor({ exporter, scheduledDelayMillis: 10 })],
    });
    const logger = provider.getLogger('payments.http');
    logger.emit({ severityNumber: 9, body: 'request ok' });
    logger.emit({ severityNumber: 17, body: 'card declined by issuer' });
    logger.emit({ severityNumber: 17, body: 'card declined again' });
    await provider.shutdown();
    const waited = await app.inject({
      url: `/_receiver/logs/wait?resource=${uuid}&min=3&timeout=5000`,
      headers: admin,
    });
    expect(waited.json().satisfied).toBe(true);

    await waitFor(async () => (await inbox(app, KEYS.alice)).length === 1, {
      what: 'alice log alert',
    });
    now += 1000;
    expect(
      (
        await api(app, 'PUT', `${base}/health`, KEYS.bob, {
          state: 'down',
          reason: 'payments failing',
        })
      ).json().changed,
    ).toBe(true);

    const kinds = async (key: string) => (await inbox(app, key)).map((n) => n.kind);
    expect(await kinds(KEYS.alice)).toEqual(['health_change', 'log_alert']);
    expect(await kinds(KEYS.bob)).toEqual([]); // no critical logs, health changes off
    expect(await kinds(KEYS.carol)).toEqual(['health_change']);
    const [, aliceAlert] = await inbox(app, KEYS.alice);
    expect(aliceAlert?.log_alert).toMatchObject({
      level: 'error',
      count: 2,
      first_message: 'card declined by issuer',
    });

    // Webhooks: alice's health change at once, her log alert when the window closes; bob none.
    await waitFor(() => sink.received.length === 1, { what: 'health webhook' });
    now += 60_000;
    await waitFor(() => sink.received.length === 2, { what: 'log alert webhook' });
    const secret = (await api(app, 'GET', '/api/me', KEYS.alice)).json().webhook_secret;
    expect(sink.received.map((r) => [r.path, r.json.event])).toEqual([
      ['/alice', 'health_change'],
      ['/alice', 'log_alert'],
    ]);
    for (const hook of sink.received) {
      expect(verifyWebhook(secret, hook.body, hook.headers['x-reslog-signature'] as string)).toBe(
        true,
      );
      expect(hook.json.recipient).toBe('alice');
    }
    expect(sink.received[1]?.json.log_alert).toMatchObject({
      count: 2,
      first_message: 'card declined by issuer',
    });
    await waitFor(async () =>
      (await inbox(app, KEYS.alice)).every((n) => n.webhook.state === 'delivered'),
    );
    expect(sink.attempts).toHaveLength(2);
  });
});
