import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { admin, BILLING, CHECKOUT, KEYS, post, readLogs, receiver } from './fixtures.js';

describe('idempotency, admin API, faults, journal, wait and metrics', () => {
  let app: FastifyInstance;
  let now = Date.parse('2026-11-21T00:00:00Z');
  beforeEach(() => {
    now = Date.parse('2026-11-21T00:00:00Z');
    app = receiver({ clock: () => now });
  });
  afterEach(() => app.close());

  it('replays the first answer for a repeated Idempotency-Key and stores nothing twice', async () => {
    const headers = { 'idempotency-key': 'batch-1' };
    const body = { logs: [{ message: 'once' }, { level: 42 }] };
    const first = await post(app, body, { headers });
    const again = await post(app, body, { headers, gzip: true }); // same bytes once inflated
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await readLogs(app)).json().logs).toHaveLength(1);

    const conflict = await post(app, { logs: [{ message: 'different' }] }, { headers });
    expect(conflict.statusCode).toBe(422);
    expect(conflict.json().error.code).toBe('idempotency_key_reused');
    // Keys are per account and resource: bob may use the same key on the same resource.
    expect((await post(app, { message: 'bob' }, { key: KEYS.bob, headers })).json().accepted).toBe(
      1,
    );
    // After 24 h the key is forgotten.
    now += 24 * 60 * 60 * 1000 + 1;
    const later = await post(app, { logs: [{ message: 'different' }] }, { headers });
    expect(later.statusCode).toBe(202);
    expect(later.json().accepted).toBe(1);
  });

  it('creates accounts, keys and resources; the key works once and is never stored in clear', async () => {
    const account = await app.inject({
      method: 'POST',
      url: '/_receiver/accounts',
      headers: admin,
      payload: { username: 'dave' },
    });
    expect(account.statusCode).toBe(201);
    const duplicate = await app.inject({
      method: 'POST',
      url: '/_receiver/accounts',
      headers: admin,
      payload: { username: 'dave' },
    });
    expect(duplicate.statusCode).toBe(409);
    const key = await app.inject({
      method: 'POST',
      url: '/_receiver/accounts/dave/keys',
      headers: admin,
    });
    expect(key.statusCode).toBe(201);
    const apiKey = key.json().api_key as string;
    expect(apiKey).toMatch(/^rlk_[0-9a-f]{8}_[A-Za-z0-9_-]{32}$/);
    const resource = await app.inject({
      method: 'POST',
      url: '/_receiver/resources',
      headers: admin,
      payload: {
        owner: 'dave',
        key: 'api',
        name: 'API',
        collaborators: [{ username: 'carol', role: 'editor' }],
      },
    });
    expect(resource.statusCode).toBe(201);
    const { uuid, id } = resource.json();
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    const path = `/u/dave/resources/${uuid}/logs/`;
    expect((await post(app, { message: 'from dave' }, { key: apiKey, path })).statusCode).toBe(202);
    expect((await post(app, { message: 'from carol' }, { key: KEYS.carol, path })).statusCode).toBe(
      202,
    );
    const internal = await app.inject({
      method: 'GET',
      url: `/internal/resources/${id}`,
      headers: admin,
    });
    expect(internal.json()).toMatchObject({
      id,
      uuid,
      owner: 'dave',
      health: 'unknown',
      log_count: 2,
      collaborators: [{ username: 'carol', role: 'editor' }],
    });
    const digests = app.receiver.store.db.prepare('SELECT digest FROM api_keys').all();
    expect(JSON.stringify(digests)).not.toContain(apiKey);
    const seeded = app.receiver.store.db.prepare('SELECT label FROM api_keys').all();
    expect(JSON.stringify(seeded)).not.toContain(KEYS.alice);
  });

  it('seeds and resets through the control plane', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/_receiver/seed',
      headers: admin,
      payload: { accounts: [{ username: 'Bad Name' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('accounts[0].username');
    await post(app, { message: 'gone after reset' });
    const reset = await app.inject({
      method: 'POST',
      url: '/_receiver/reset?reseed=true',
      headers: admin,
    });
    expect(reset.json()).toEqual({ accounts: 4, teams: 0, resources: 3 });
    expect((await readLogs(app)).json().logs).toEqual([]);
    const empty = await app.inject({ method: 'POST', url: '/_receiver/reset', headers: admin });
    expect(empty.json()).toEqual({ accounts: 0, teams: 0, resources: 0 });
    expect((await post(app, { message: 'x' })).statusCode).toBe(401);
  });

  it('injects status faults for matching requests, counts them down and journals them', async () => {
    const rule = await app.inject({
      method: 'POST',
      url: '/_receiver/faults',
      headers: admin,
      payload: { match: { resource: CHECKOUT }, count: 2, action: { status: 503, retryAfter: 2 } },
    });
    expect(rule.statusCode).toBe(201);
    const first = await post(app, { message: 'a' });
    expect(first.statusCode).toBe(503);
    expect(first.headers['retry-after']).toBe('2');
    expect(first.json().error.code).toBe('fault_injected');
    expect(
      (await post(app, { message: 'billing' }, { path: `/u/alice/resources/${BILLING}/logs/` }))
        .statusCode,
    ).toBe(202);
    expect((await post(app, { message: 'b' })).statusCode).toBe(503);
    expect((await post(app, { message: 'c' })).statusCode).toBe(202);

    const journal = (
      await app.inject({
        method: 'GET',
        url: `/_receiver/requests?resource=${CHECKOUT}`,
        headers: admin,
      })
    ).json();
    const statuses = journal.requests.map((r: { status: number; fault: unknown }) => [
      r.status,
      r.fault !== null,
    ]);
    expect(statuses).toEqual([
      [503, true],
      [503, true],
      [202, false],
    ]);
    expect(JSON.stringify(journal)).not.toContain(KEYS.alice);
    expect(journal.requests[0].headers['x-api-key']).toBe('[REDACTED]');
    expect(journal.requests[0]).toMatchObject({ username: 'alice', resource: CHECKOUT });

    const probabilistic = await app.inject({
      method: 'POST',
      url: '/_receiver/faults',
      headers: admin,
      payload: { probability: 0.5, seed: 7, action: { status: 500 } },
    });
    const statusesA: number[] = [];
    for (let i = 0; i < 20; i++) statusesA.push((await post(app, { message: `p${i}` })).statusCode);
    expect(statusesA).toContain(500);
    expect(statusesA).toContain(202);
    await app.inject({
      method: 'DELETE',
      url: `/_receiver/faults/${probabilistic.json().id}`,
      headers: admin,
    });
    expect(
      (await app.inject({ method: 'GET', url: '/_receiver/faults', headers: admin })).json().faults,
    ).toHaveLength(1);
    await app.inject({ method: 'DELETE', url: '/_receiver/faults', headers: admin });
    expect(
      (await app.inject({ method: 'GET', url: '/_receiver/faults', headers: admin })).json().faults,
    ).toEqual([]);
  });

  it('long-polls until a resource holds enough logs, or times out', async () => {
    const waiting = app.inject({
      method: 'GET',
      url: `/_receiver/logs/wait?resource=${CHECKOUT}&min=3&timeout=5000`,
      headers: admin,
    });
    await post(app, { logs: [{ message: '1' }, { message: '2' }] });
    await post(app, { message: '3' });
    expect((await waiting).json()).toEqual({ resource: CHECKOUT, count: 3, satisfied: true });
    const timedOut = await app.inject({
      method: 'GET',
      url: `/_receiver/logs/wait?resource=${CHECKOUT}&min=10&timeout=50`,
      headers: admin,
    });
    expect(timedOut.json()).toEqual({ resource: CHECKOUT, count: 3, satisfied: false });
  });

  it('exposes Prometheus metrics', async () => {
    await post(app, { logs: [{ message: 'ok' }, { level: 42 }] });
    await post(app, { message: 'x' }, { key: KEYS.carol });
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.body).toMatch(/^process_resident_memory_bytes [1-9]\d*$/m);
    expect(metrics.body).toMatch(/^nodejs_heap_size_used_bytes [1-9]\d*$/m);
    expect(metrics.body).toContain('reslog_receiver_records_accepted_total 1');
    expect(metrics.body).toContain(
      'reslog_receiver_records_rejected_total{code="invalid_level"} 1',
    );
    expect(metrics.body).toContain(
      'reslog_receiver_requests_total{route="/u/:username/resources/:uuid/logs/",status="403"} 1',
    );
    expect(metrics.body).toMatch(
      /reslog_receiver_request_duration_seconds_bucket\{route="[^"]+",le="\+Inf"\} \d+/,
    );
  });

  it('answers readiness and liveness without a token', async () => {
    expect((await app.inject({ method: 'GET', url: '/_receiver/health/ready' })).json()).toEqual({
      status: 'ready',
    });
  });

  it('answers readiness with 503 not_ready and Retry-After once the database is closed', async () => {
    await app.ready();
    app.receiver.store.db.close();
    const ready = await app.inject({ method: 'GET', url: '/_receiver/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('1');
    expect(ready.json().error).toMatchObject({ code: 'not_ready', message: 'database is closed' });
  });
});
