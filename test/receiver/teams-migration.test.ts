import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { digestKey } from '../../src/receiver/access/api-keys.js';
import { buildReceiver } from '../../src/receiver/index.js';
import { MIGRATIONS } from '../../src/receiver/store/migrations.js';
import { api, inbox } from './api-fixtures.js';
import { ADMIN_TOKEN, admin, BILLING, CHECKOUT, KEYS } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'reslog-migration-v5-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const AT = '2026-11-01T00:00:00.000Z';
const GONE = '00000000-0000-4000-8000-00000000dead';

/**
 * A database as a version-4 receiver left it: alice owns checkout (bob editor, carol
 * viewer, with logs, settings, health history, a notification and an idempotency record)
 * and billing (with a health check); a third resource was deleted, so its id is used up.
 */
function createVersion4Database(file: string): void {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= 4)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(
      migration.version,
      migration.name,
      AT,
    );
  }
  const key = db.prepare(
    "INSERT INTO api_keys (account_id, digest, label, created_at) VALUES (?, ?, 'seeded', ?)",
  );
  for (const [id, name] of [
    [1, 'alice'],
    [2, 'bob'],
    [3, 'carol'],
  ] as const) {
    db.prepare('INSERT INTO accounts (id, username, created_at) VALUES (?, ?, ?)').run(
      id,
      name,
      AT,
    );
    key.run(id, digestKey(KEYS[name]), AT);
  }
  db.exec(`
    INSERT INTO resources (id, uuid, owner_id, key, name, health_state, health_changed_at, created_at)
      VALUES (1, '${CHECKOUT}', 1, 'checkout-api', 'Checkout API', 'degraded', '${AT}', '${AT}'),
             (2, '${BILLING}', 1, 'billing-worker', 'Billing worker', 'unknown', NULL, '${AT}'),
             (3, '${GONE}', 1, 'gone', 'Gone', 'unknown', NULL, '${AT}');
    DELETE FROM resources WHERE id = 3;
    INSERT INTO collaborators (resource_id, account_id, role, created_at)
      VALUES (1, 2, 'editor', '${AT}'), (1, 3, 'viewer', '${AT}');
    INSERT INTO notification_settings (resource_id, account_id, enabled, health_changes,
        log_alert_level, webhook_url, changed_by_member, updated_at)
      VALUES (1, 1, 1, 1, 'error', NULL, 0, '${AT}'), (2, 1, 1, 1, 'error', NULL, 0, '${AT}'),
             (1, 2, 0, 1, 'critical', 'http://127.0.0.1:9/bob', 1, '${AT}'),
             (1, 3, 1, 1, 'error', NULL, 0, '${AT}');
    INSERT INTO ingests (id, resource_id, resource_attrs, sdk, sdk_version, received_at, request_id)
      VALUES (1, 1, '{"service.name":"checkout"}', 'reslog', '0.1.0', '${AT}', 'req-1');
    INSERT INTO logs (resource_id, ingest_id, ts_ns, level_rank, message, attributes)
      VALUES (1, 1, 1795600000000000000, 20, 'payment accepted', '{"order":42}'),
             (1, 1, 1795600000000000001, 40, 'card declined', '{}');
    INSERT INTO health_events (resource_id, from_state, to_state, reason, source, actor, probe, at)
      VALUES (1, 'unknown', 'degraded', 'slow', 'manual', 'alice', NULL, '${AT}');
    INSERT INTO notifications (account_id, resource_id, kind, detail, created_at, updated_at)
      VALUES (2, 1, 'health_change',
        '{"from":"unknown","to":"degraded","reason":"slow","source":"manual","actor":"alice","probe":null}',
        '${AT}', '${AT}');
    INSERT INTO health_checks (resource_id, url, interval_seconds, timeout_millis, expect_status,
        next_due_ms, updated_at)
      VALUES (2, 'http://127.0.0.1:9/healthz', 3600, 1000, 200, 9999999999999, '${AT}');
    INSERT INTO idempotency_records (account_id, resource_id, idempotency_key, body_digest,
        status, response, created_at_ms)
      VALUES (1, 1, 'k1', 'd', 202, '{}', 1);
  `);
  db.close();
}

function count(file: string, sql: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('schema version 5 (teams) on an existing database', () => {
  let app: FastifyInstance | undefined;
  afterEach(() => app?.close());

  it("keeps accounts' resources, members, logs, settings, history and ids exactly as they were", async () => {
    const file = join(dir, 'v4.db');
    createVersion4Database(file);
    app = buildReceiver({
      db: file,
      adminToken: ADMIN_TOKEN,
      healthChecks: { pollMillis: 60_000 },
    });

    const logs = await app.inject({
      url: `/u/alice/resources/${CHECKOUT}/logs/?order=asc`,
      headers: { 'x-api-key': KEYS.carol },
    });
    expect(logs.statusCode, logs.body).toBe(200);
    expect(
      logs
        .json()
        .logs.map((l: Record<string, unknown>) => [l.id, l.message, l.level, l.attributes]),
    ).toEqual([
      [1, 'payment accepted', 'info', { order: 42 }],
      [2, 'card declined', 'error', {}],
    ]);

    const list = async (key: string) =>
      (await api(app as FastifyInstance, 'GET', '/api/resources', key))
        .json()
        .resources.map((r: Record<string, string>) => [r.owner, r.key, r.role, r.health]);
    expect(await list(KEYS.alice)).toEqual([
      ['alice', 'billing-worker', 'owner', 'unknown'],
      ['alice', 'checkout-api', 'owner', 'degraded'],
    ]);
    expect(await list(KEYS.bob)).toEqual([['alice', 'checkout-api', 'editor', 'degraded']]);
    const settings = await api(
      app,
      'GET',
      `/api/resources/${CHECKOUT}/notification-settings`,
      KEYS.bob,
    );
    expect(settings.json()).toEqual({
      enabled: false,
      health_changes: true,
      log_alert_level: 'critical',
      webhook_url: 'http://127.0.0.1:9/bob',
    });
    expect((await inbox(app, KEYS.bob)).map((n) => [n.kind, n.resource.owner])).toEqual([
      ['health_change', 'alice'],
    ]);
    const health = (await api(app, 'GET', `/api/resources/${CHECKOUT}/health`, KEYS.carol)).json();
    expect(health.history.map((e: { to: string; actor: string }) => [e.to, e.actor])).toEqual([
      ['degraded', 'alice'],
    ]);
    expect(
      (await api(app, 'GET', `/api/resources/${BILLING}/health`, KEYS.alice)).json().check,
    ).toMatchObject({
      url: 'http://127.0.0.1:9/healthz',
    });

    // The same permissions: the editor writes, the viewer may not, a stranger sees nothing.
    const write = (key: string) =>
      (app as FastifyInstance).inject({
        method: 'POST',
        url: `/u/alice/resources/${CHECKOUT}/logs/`,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        payload: JSON.stringify({ message: 'after v5' }),
      });
    expect((await write(KEYS.bob)).statusCode).toBe(202);
    expect((await write(KEYS.carol)).statusCode).toBe(403);
    // Keys stay unique per owner; ids of deleted resources are not handed out again.
    expect(
      (await api(app, 'POST', '/api/resources', KEYS.alice, { name: 'x', key: 'checkout-api' }))
        .statusCode,
    ).toBe(409);
    const created = await app.inject({
      method: 'POST',
      url: '/_receiver/resources',
      headers: admin,
      payload: { owner: 'alice', key: 'new-one' },
    });
    expect(created.json().id).toBe(4);

    // Children still reference resources: deleting one cascades to all of its rows, and only its.
    expect((await api(app, 'DELETE', `/api/resources/${CHECKOUT}`, KEYS.alice)).statusCode).toBe(
      204,
    );
    await app.close();
    app = undefined;
    for (const table of [
      'logs',
      'ingests',
      'collaborators',
      'notification_settings',
      'health_events',
      'notifications',
      'idempotency_records',
    ]) {
      expect(count(file, `SELECT COUNT(*) AS n FROM ${table} WHERE resource_id = 1`), table).toBe(
        0,
      );
    }
    expect(count(file, 'SELECT COUNT(*) AS n FROM health_checks WHERE resource_id = 2')).toBe(1);
    expect(
      count(file, 'SELECT COUNT(*) AS n FROM notification_settings WHERE resource_id = 2'),
    ).toBe(1);
    expect(count(file, 'SELECT MAX(version) AS n FROM schema_migrations')).toBe(
      MIGRATIONS.at(-1)?.version,
    );
    const db = new DatabaseSync(file);
    try {
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(
        db.prepare('SELECT DISTINCT "table" AS t FROM pragma_foreign_key_list(\'logs\')').all(),
      ).toEqual([{ t: 'resources' }]);
      // Exactly one owner, an account or a team.
      const insert = db.prepare(
        "INSERT INTO resources (uuid, owner_id, team_id, key, name, created_at) VALUES (?, ?, ?, 'k', 'k', 'now')",
      );
      expect(() => insert.run('u-none', null, null)).toThrow(/CHECK constraint failed/);
      db.exec("INSERT INTO teams (id, name, created_at) VALUES (1, 'devops', 'now')");
      expect(() => insert.run('u-both', 1, 1)).toThrow(/CHECK constraint failed/);
      insert.run('u-team', null, 1);
      expect(() => insert.run('u-team-2', null, 1)).toThrow(/UNIQUE constraint failed/);
    } finally {
      db.close();
    }
  });
});
