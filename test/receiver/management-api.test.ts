import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, inbox } from './api-fixtures.js';
import {
  admin,
  BILLING,
  BOB_PRIVATE,
  CHECKOUT,
  KEYS,
  post,
  readLogs,
  receiver,
} from './fixtures.js';

describe('management API', () => {
  let app: FastifyInstance;
  let now = Date.parse('2026-11-21T00:00:00Z');
  beforeEach(() => {
    now = Date.parse('2026-11-21T00:00:00Z');
    app = receiver({ clock: () => now });
  });
  afterEach(() => app.close());

  it('GET /api/me shows the caller and a stable webhook secret; a bad key is 401', async () => {
    const me = await api(app, 'GET', '/api/me', KEYS.bob);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      username: 'bob',
      webhook_secret: expect.stringMatching(/^whsec_.{40,}$/),
    });
    expect((await api(app, 'GET', '/api/me', KEYS.bob)).json().webhook_secret).toBe(
      me.json().webhook_secret,
    );
    expect((await api(app, 'GET', '/api/me', KEYS.alice)).json().webhook_secret).not.toBe(
      me.json().webhook_secret,
    );
    const bad = await api(app, 'GET', '/api/me', 'not-a-key-00000000000');
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error.code).toBe('invalid_api_key');
  });

  it('creates resources with a generated UUID and key, refuses duplicate keys, never shows the numeric ID', async () => {
    const created = await api(app, 'POST', '/api/resources', KEYS.carol, {
      name: 'Ünïcode Shop API!',
    });
    expect(created.statusCode).toBe(201);
    const resource = created.json();
    expect(resource).toEqual({
      uuid: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      key: 'unicode-shop-api',
      name: 'Ünïcode Shop API!',
      owner: 'carol',
      role: 'owner',
      health: 'unknown',
      created_at: '2026-11-21T00:00:00.000Z',
    });
    expect(resource).not.toHaveProperty('id');
    const again = await api(app, 'POST', '/api/resources', KEYS.carol, {
      name: 'Other',
      key: 'unicode-shop-api',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('conflict');
    // Keys are unique per owner only.
    expect(
      (await api(app, 'POST', '/api/resources', KEYS.bob, { name: 'x', key: 'unicode-shop-api' }))
        .statusCode,
    ).toBe(201);
    expect(
      (await api(app, 'POST', '/api/resources', KEYS.carol, { name: 'x', key: 'Bad Key' }))
        .statusCode,
    ).toBe(400);

    // The owner writes to it through the ingest path; the exporter's key lookup finds it.
    expect(
      (
        await post(
          app,
          { message: 'hi' },
          { key: KEYS.carol, path: `/u/carol/resources/${resource.uuid}/logs/` },
        )
      ).statusCode,
    ).toBe(202);
    const byKey = await app.inject({
      url: '/u/carol/resources/by-key/unicode-shop-api',
      headers: { 'x-api-key': KEYS.carol },
    });
    expect(byKey.json().uuid).toBe(resource.uuid);
  });

  it('lists owned and shared resources with the caller role; reads one; PATCH renames and re-keys (owner)', async () => {
    const list = (key: string) =>
      api(app, 'GET', '/api/resources', key).then((r) => r.json().resources);
    expect(
      (await list(KEYS.alice)).map((r: { key: string; role: string }) => [r.key, r.role]),
    ).toEqual([
      ['billing-worker', 'owner'],
      ['checkout-api', 'owner'],
    ]);
    expect(
      (await list(KEYS.bob)).map((r: { owner: string; key: string; role: string }) => [
        r.owner,
        r.key,
        r.role,
      ]),
    ).toEqual([
      ['alice', 'checkout-api', 'editor'],
      ['bob', 'bob-private', 'owner'],
    ]);
    expect(await list(KEYS.mallory)).toEqual([]);
    for (const r of await list(KEYS.bob)) expect(r).not.toHaveProperty('id');

    const one = await api(app, 'GET', `/api/resources/${CHECKOUT}`, KEYS.carol);
    expect(one.json()).toMatchObject({ uuid: CHECKOUT, role: 'viewer', owner: 'alice' });

    expect(
      (await api(app, 'PATCH', `/api/resources/${CHECKOUT}`, KEYS.bob, { name: 'x' })).statusCode,
    ).toBe(403);
    const clash = await api(app, 'PATCH', `/api/resources/${CHECKOUT}`, KEYS.alice, {
      key: 'billing-worker',
    });
    expect(clash.statusCode).toBe(409);
    const patched = await api(app, 'PATCH', `/api/resources/${CHECKOUT}`, KEYS.alice, {
      name: 'Checkout',
      key: 'checkout',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Checkout', key: 'checkout', role: 'owner' });
    const byKey = await app.inject({
      url: '/u/alice/resources/by-key/checkout',
      headers: { 'x-api-key': KEYS.carol },
    });
    expect(byKey.json().uuid).toBe(CHECKOUT);
  });

  it('DELETE (owner) removes the resource with its logs, shares, settings and notifications', async () => {
    await app.ready();
    const { db, directory } = app.receiver.store;
    const id = directory.resourceByUuid(CHECKOUT)?.id;
    expect((await post(app, { level: 'error', message: 'boom' })).statusCode).toBe(202);
    await api(app, 'PUT', `/api/resources/${CHECKOUT}/health`, KEYS.bob, { state: 'down' });
    await api(app, 'PUT', `/api/resources/${CHECKOUT}/health-check`, KEYS.bob, {
      url: 'http://127.0.0.1:9/health',
      interval_seconds: 3600,
    });
    app.receiver.monitor.flush(); // the post-commit alert step, without waiting for the next tick
    const rows = (table: string) =>
      (
        db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE resource_id = ?`).get(id ?? -1) as {
          n: number;
        }
      ).n;
    const tables = [
      'logs',
      'collaborators',
      'notification_settings',
      'notifications',
      'health_events',
      'health_checks',
    ];
    for (const table of tables) expect(rows(table), table).toBeGreaterThan(0);
    expect((await inbox(app, KEYS.carol)).map((n) => n.kind).sort()).toEqual([
      'health_change',
      'log_alert',
    ]);

    expect((await api(app, 'DELETE', `/api/resources/${CHECKOUT}`, KEYS.bob)).statusCode).toBe(403);
    expect((await api(app, 'DELETE', `/api/resources/${CHECKOUT}`, KEYS.carol)).statusCode).toBe(
      403,
    );
    expect((await api(app, 'DELETE', `/api/resources/${CHECKOUT}`, KEYS.mallory)).statusCode).toBe(
      404,
    );
    expect((await api(app, 'DELETE', `/api/resources/${CHECKOUT}`, KEYS.alice)).statusCode).toBe(
      204,
    );

    for (const table of tables) expect(rows(table), table).toBe(0);
    expect((await api(app, 'GET', `/api/resources/${CHECKOUT}`, KEYS.alice)).statusCode).toBe(404);
    expect((await readLogs(app)).statusCode).toBe(404);
    expect(await inbox(app, KEYS.carol)).toEqual([]);
    expect(
      (await app.inject({ url: `/internal/resources/${id}`, headers: admin })).statusCode,
    ).toBe(404);
    // Other resources are untouched.
    expect((await api(app, 'GET', `/api/resources/${BILLING}`, KEYS.alice)).statusCode).toBe(200);
  });

  it('collaborators: owner shares, changes roles and removes; a collaborator may leave; removal revokes at once', async () => {
    expect(
      (await api(app, 'GET', `/api/resources/${CHECKOUT}/collaborators`, KEYS.alice)).json(),
    ).toEqual({
      owner: 'alice',
      collaborators: [
        { username: 'bob', role: 'editor' },
        { username: 'carol', role: 'viewer' },
      ],
    });
    expect(
      (await api(app, 'GET', `/api/resources/${CHECKOUT}/collaborators`, KEYS.bob)).statusCode,
    ).toBe(403);
    expect(
      (
        await api(app, 'PUT', `/api/resources/${CHECKOUT}/collaborators/mallory`, KEYS.bob, {
          role: 'viewer',
        })
      ).statusCode,
    ).toBe(403);

    const added = await api(
      app,
      'PUT',
      `/api/resources/${CHECKOUT}/collaborators/mallory`,
      KEYS.alice,
      { role: 'viewer' },
    );
    expect(added.statusCode).toBe(201);
    expect((await readLogs(app, '', { key: KEYS.mallory })).statusCode).toBe(200);
    expect((await post(app, { message: 'x' }, { key: KEYS.mallory })).statusCode).toBe(403);
    const promoted = await api(
      app,
      'PUT',
      `/api/resources/${CHECKOUT}/collaborators/mallory`,
      KEYS.alice,
      { role: 'editor' },
    );
    expect(promoted.statusCode).toBe(200);
    expect((await post(app, { message: 'x' }, { key: KEYS.mallory })).statusCode).toBe(202);

    expect(
      (
        await api(app, 'PUT', `/api/resources/${CHECKOUT}/collaborators/nobody`, KEYS.alice, {
          role: 'viewer',
        })
      ).statusCode,
    ).toBe(404);
    const self = await api(
      app,
      'PUT',
      `/api/resources/${CHECKOUT}/collaborators/alice`,
      KEYS.alice,
      { role: 'viewer' },
    );
    expect(self.statusCode).toBe(400);
    expect(
      (
        await api(app, 'PUT', `/api/resources/${CHECKOUT}/collaborators/bob`, KEYS.alice, {
          role: 'owner',
        })
      ).statusCode,
    ).toBe(400);

    // bob (editor) may not remove carol, but may leave; the owner cannot leave.
    expect(
      (await api(app, 'DELETE', `/api/resources/${CHECKOUT}/collaborators/carol`, KEYS.bob))
        .statusCode,
    ).toBe(403);
    expect(
      (await api(app, 'DELETE', `/api/resources/${CHECKOUT}/collaborators/bob`, KEYS.bob))
        .statusCode,
    ).toBe(204);
    expect((await api(app, 'GET', `/api/resources/${CHECKOUT}`, KEYS.bob)).statusCode).toBe(404);
    expect(
      (await api(app, 'DELETE', `/api/resources/${CHECKOUT}/collaborators/alice`, KEYS.alice))
        .statusCode,
    ).toBe(403);

    const removed = await api(
      app,
      'DELETE',
      `/api/resources/${CHECKOUT}/collaborators/mallory`,
      KEYS.alice,
    );
    expect(removed.statusCode).toBe(204);
    expect((await readLogs(app, '', { key: KEYS.mallory })).statusCode).toBe(404);
    expect(
      (await api(app, 'GET', `/api/resources/${CHECKOUT}/notification-settings`, KEYS.mallory))
        .statusCode,
    ).toBe(404);
    expect(
      (await api(app, 'DELETE', `/api/resources/${CHECKOUT}/collaborators/mallory`, KEYS.alice))
        .statusCode,
    ).toBe(404);
  });

  it('notification settings: defaults for a new member, each member reads and edits only their own', async () => {
    const created = (await api(app, 'POST', '/api/resources', KEYS.mallory, { name: 'm' })).json();
    const path = `/api/resources/${created.uuid}/notification-settings`;
    expect((await api(app, 'GET', path, KEYS.mallory)).json()).toEqual({
      enabled: true,
      health_changes: true,
      log_alert_level: 'error',
      webhook_url: null,
    });
    await api(app, 'PUT', `/api/resources/${created.uuid}/collaborators/carol`, KEYS.mallory, {
      role: 'viewer',
    });
    const carol = await api(app, 'PUT', path, KEYS.carol, {
      log_alert_level: null,
      webhook_url: 'http://127.0.0.1:9/hook',
    });
    expect(carol.statusCode).toBe(200);
    expect(carol.json()).toEqual({
      enabled: true,
      health_changes: true,
      log_alert_level: null,
      webhook_url: 'http://127.0.0.1:9/hook',
    });
    // Partial PUT keeps the other fields; the owner's settings did not move.
    expect((await api(app, 'PUT', path, KEYS.carol, { enabled: false })).json()).toMatchObject({
      enabled: false,
      webhook_url: 'http://127.0.0.1:9/hook',
    });
    expect((await api(app, 'GET', path, KEYS.mallory)).json()).toMatchObject({
      enabled: true,
      log_alert_level: 'error',
      webhook_url: null,
    });
    // There is no way to name another member: a `username` field is dropped by the schema and
    // the write lands on the caller's own settings.
    await api(app, 'PUT', path, KEYS.mallory, {
      username: 'carol',
      enabled: true,
      health_changes: false,
    });
    expect((await api(app, 'GET', path, KEYS.carol)).json()).toMatchObject({
      enabled: false,
      health_changes: true,
    });
    expect((await api(app, 'GET', path, KEYS.mallory)).json()).toMatchObject({
      health_changes: false,
    });
    expect((await api(app, 'PUT', path, KEYS.carol, { webhook_url: 'ftp://x' })).statusCode).toBe(
      400,
    );
    expect((await api(app, 'PUT', path, KEYS.carol, { log_alert_level: 'info' })).statusCode).toBe(
      400,
    );
    expect((await api(app, 'GET', path, KEYS.bob)).statusCode).toBe(404);
  });

  it('health: owner and editor set it, viewers read it; transitions make the history, repeats do not', async () => {
    const path = `/api/resources/${CHECKOUT}/health`;
    expect((await api(app, 'PUT', path, KEYS.carol, { state: 'down' })).statusCode).toBe(403);
    const first = await api(app, 'PUT', path, KEYS.bob, { state: 'degraded', reason: 'slow' });
    expect(first.json()).toEqual({
      state: 'degraded',
      changed: true,
      changed_at: '2026-11-21T00:00:00.000Z',
    });
    now += 1000;
    expect((await api(app, 'PUT', path, KEYS.alice, { state: 'degraded' })).json()).toMatchObject({
      changed: false,
      changed_at: '2026-11-21T00:00:00.000Z',
    });
    await api(app, 'PUT', path, KEYS.alice, { state: 'healthy' });
    expect((await api(app, 'PUT', path, KEYS.alice, { state: 'sick' })).statusCode).toBe(400);
    const health = (await api(app, 'GET', path, KEYS.carol)).json();
    expect(health).toMatchObject({
      state: 'healthy',
      changed_at: '2026-11-21T00:00:01.000Z',
      check: null,
    });
    expect(health.history).toEqual([
      {
        from: 'degraded',
        to: 'healthy',
        reason: null,
        source: 'manual',
        actor: 'alice',
        probe: null,
        at: '2026-11-21T00:00:01.000Z',
      },
      {
        from: 'unknown',
        to: 'degraded',
        reason: 'slow',
        source: 'manual',
        actor: 'bob',
        probe: null,
        at: '2026-11-21T00:00:00.000Z',
      },
    ]);
    expect((await api(app, 'GET', `/api/resources/${CHECKOUT}`, KEYS.carol)).json().health).toBe(
      'healthy',
    );
    expect((await api(app, 'GET', path, KEYS.mallory)).statusCode).toBe(404);
  });

  it('notifications: only the caller’s, filtered, paged, marked read; someone else’s id is 404', async () => {
    const path = `/api/resources/${CHECKOUT}/health`;
    for (const state of ['degraded', 'down', 'healthy'] as const) {
      await api(app, 'PUT', path, KEYS.alice, { state });
      now += 1000;
    }
    await api(app, 'PUT', `/api/resources/${BILLING}/health`, KEYS.alice, { state: 'down' });
    // examples/seed.json disables bob's notifications for checkout.
    expect(await inbox(app, KEYS.bob)).toEqual([]);
    const carol = await inbox(app, KEYS.carol);
    expect(carol.map((n) => n.health.to)).toEqual(['healthy', 'down', 'degraded']);
    expect(await inbox(app, KEYS.alice, `?resource=${BILLING}`)).toHaveLength(1);
    const page1 = (await api(app, 'GET', '/api/notifications?limit=2', KEYS.alice)).json();
    expect(page1.notifications).toHaveLength(2);
    const page2 = (
      await api(app, 'GET', `/api/notifications?limit=2&cursor=${page1.next_cursor}`, KEYS.alice)
    ).json();
    expect(page2.notifications).toHaveLength(2);
    expect(page2.next_cursor).toBeNull();
    expect(
      [...page1.notifications, ...page2.notifications].map((n: { id: number }) => n.id),
    ).toEqual((await inbox(app, KEYS.alice)).map((n) => n.id));

    const target = carol[0]?.id as number;
    expect(
      (await api(app, 'POST', `/api/notifications/${target}/read`, KEYS.alice)).statusCode,
    ).toBe(404);
    const read = await api(app, 'POST', `/api/notifications/${target}/read`, KEYS.carol);
    expect(read.statusCode).toBe(200);
    expect(read.json().read_at).toBe(new Date(now).toISOString());
    expect((await inbox(app, KEYS.carol, '?unread=true')).map((n) => n.id)).not.toContain(target);
    expect(await inbox(app, KEYS.carol, '?unread=true')).toHaveLength(2);
    expect((await api(app, 'GET', '/api/notifications?cursor=%%%', KEYS.carol)).statusCode).toBe(
      400,
    );
    expect(await inbox(app, KEYS.mallory)).toEqual([]);
    expect(
      (await api(app, 'GET', `/api/resources/${BOB_PRIVATE}/health`, KEYS.alice)).statusCode,
    ).toBe(404);
  });

  it('publishes an OpenAPI document of the whole API generated from the route schemas', async () => {
    const response = await app.inject({ url: '/_receiver/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/api/me',
      '/api/resources',
      '/api/resources/{uuid}',
      '/api/resources/{uuid}/collaborators/{username}',
      '/api/resources/{uuid}/notification-settings',
      '/api/resources/{uuid}/health',
      '/api/resources/{uuid}/health-check',
      '/api/notifications',
      '/api/notifications/{id}/read',
      '/u/{username}/resources/{uuid}/logs/',
      '/u/{username}/resources/{uuid}/v1/logs',
      '/_receiver/faults',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(
      doc.paths['/api/resources'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['name']);
    expect(
      doc.paths['/api/resources/{uuid}/notification-settings'].put.responses['200'],
    ).toBeDefined();
  });
});
