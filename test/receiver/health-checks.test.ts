import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stateAfterProbe } from '../../src/receiver/monitor/health-checker.js';
import { api, inbox, type Sink, startSink, waitFor } from './api-fixtures.js';
import { CHECKOUT, KEYS, receiver } from './fixtures.js';

const T0 = Date.parse('2026-11-21T00:00:00Z');
const checkPath = `/api/resources/${CHECKOUT}/health-check`;
const healthPath = `/api/resources/${CHECKOUT}/health`;

describe('scheduled health checks', () => {
  let app: FastifyInstance;
  let service: Sink;
  let now = T0;
  beforeEach(async () => {
    now = T0;
    service = await startSink();
    app = receiver({
      clock: () => now,
      healthChecks: { pollMillis: 5, failuresUntilDown: 2 },
      notifications: { pollMillis: 5 },
    });
  });
  afterEach(async () => {
    await app.close();
    await service.close();
  });

  const health = async () => (await api(app, 'GET', healthPath, KEYS.carol)).json();

  it('derives the state from probes: healthy, degraded after one failure, down after the threshold', async () => {
    expect(
      (
        await api(app, 'PUT', checkPath, KEYS.carol, {
          url: `${service.url}/`,
          interval_seconds: 30,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await api(app, 'PUT', checkPath, KEYS.bob, {
          url: 'file:///etc/passwd',
          interval_seconds: 30,
        })
      ).statusCode,
    ).toBe(400);
    const attached = await api(app, 'PUT', checkPath, KEYS.bob, {
      url: `${service.url}/healthz`,
      interval_seconds: 30,
      timeout_millis: 2000,
      expect_status: 200,
    });
    expect(attached.statusCode).toBe(200);
    expect(attached.json()).toMatchObject({
      url: `${service.url}/healthz`,
      interval_seconds: 30,
      timeout_millis: 2000,
      expect_status: 200,
      consecutive_failures: 0,
    });

    // The first probe runs at once.
    await waitFor(async () => (await health()).state === 'healthy');
    expect(service.attempts[0]?.path).toBe('/healthz');
    expect(service.attempts).toHaveLength(1); // the next one is due in 30 s

    service.failNext(503, 500);
    now += 30_000;
    await waitFor(async () => (await health()).state === 'degraded');
    now += 30_000;
    await waitFor(async () => (await health()).state === 'down');
    service.failNext();
    now += 30_000;
    await waitFor(async () => (await health()).state === 'healthy');

    const { history, check } = await health();
    expect(history.map((e: { from: string; to: string }) => `${e.from}>${e.to}`)).toEqual([
      'down>healthy',
      'degraded>down',
      'healthy>degraded',
      'unknown>healthy',
    ]);
    expect(history[1]).toMatchObject({
      source: 'check',
      actor: null,
      reason: 'probe failed: answered 500, expected 200',
      probe: { ok: false, status: 500, at: new Date(T0 + 60_000).toISOString() },
    });
    expect(history[0].probe).toMatchObject({ ok: true, status: 200, error: null });
    expect(check).toMatchObject({ consecutive_failures: 0, last_result: { ok: true } });

    // Transitions take the same monitor path as manual ones: members are notified.
    const changes = (await inbox(app, KEYS.carol)).map((n) => n.health.to);
    expect(changes).toEqual(['healthy', 'down', 'degraded', 'healthy']);
  });

  it('records a connection failure and a timeout as failed probes; DELETE stops probing', async () => {
    const closed = await startSink();
    const deadUrl = `${closed.url}/`;
    await closed.close();
    await api(app, 'PUT', checkPath, KEYS.alice, { url: deadUrl, interval_seconds: 5 });
    await waitFor(async () => (await health()).state === 'degraded');
    expect((await health()).check.last_result).toMatchObject({
      ok: false,
      status: null,
      error: 'ECONNREFUSED',
    });

    await api(app, 'PUT', checkPath, KEYS.alice, {
      url: `${service.url}/`,
      interval_seconds: 5,
      expect_status: 204,
    });
    await waitFor(async () => (await health()).check.last_result?.status === 200);
    expect((await health()).check.last_result.error).toBe('answered 200, expected 204');

    expect((await api(app, 'DELETE', checkPath, KEYS.carol)).statusCode).toBe(403);
    expect((await api(app, 'DELETE', checkPath, KEYS.alice)).statusCode).toBe(204);
    expect((await api(app, 'DELETE', checkPath, KEYS.alice)).statusCode).toBe(404);
    const probes = service.attempts.length;
    now += 60_000;
    // A manual change still works and proves the app kept running past the old due time.
    await api(app, 'PUT', healthPath, KEYS.alice, { state: 'healthy' });
    expect(service.attempts).toHaveLength(probes);
    expect((await health()).check).toBeNull();
  });

  it('stateAfterProbe: one failure degrades, the threshold makes it down, success heals', () => {
    expect(stateAfterProbe(true, 0, 3)).toBe('healthy');
    expect(stateAfterProbe(false, 1, 3)).toBe('degraded');
    expect(stateAfterProbe(false, 2, 3)).toBe('degraded');
    expect(stateAfterProbe(false, 3, 3)).toBe('down');
    expect(stateAfterProbe(false, 1, 1)).toBe('down');
  });
});
