import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/receiver/store/migrations.js';
import { CHECKOUT, KEYS, post, readLogs, receiver } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'reslog-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database as a version-2 receiver left it: alice's checkout resource and its logs. */
function createVersion2Database(file: string): void {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= 2)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(
      migration.version,
      migration.name,
      '2026-11-01T00:00:00.000Z',
    );
  }
  db.exec(`
    INSERT INTO accounts (id, username, created_at) VALUES (1, 'alice', '2026-11-01T00:00:00.000Z');
    INSERT INTO resources (id, uuid, owner_id, key, name, created_at)
      VALUES (1, '${CHECKOUT}', 1, 'checkout-api', 'Checkout API', '2026-11-01T00:00:00.000Z');
  `);
  const insert = db.prepare(
    `INSERT INTO logs (resource_id, ts_ns, level_rank, level, severity_number, message, logger,
       attributes, extra, body, trace_id, span_id, observed_ts_ns, event_name, record_id,
       unknown_fields, resource_attrs, sdk, sdk_version, received_at, request_id)
     VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const sdkRequest = [
    '{"service.name":"checkout"}',
    'reslog',
    '0.1.0',
    '2026-11-20T10:00:00.000Z',
    'req-1',
  ];
  // Request ids restart with the process: the same id, received later, is another request.
  const afterRestart = ['{}', null, null, '2026-11-20T11:00:00.000Z', 'req-1'];
  insert.run(
    1_795_600_000_000_000_001n,
    2,
    'info',
    9,
    'payment accepted',
    'checkout.http',
    '{"http.route":"/pay","order.id":42}',
    null,
    null,
    '4bf92f3577b34da6a3ce929d0e0e4736',
    '00f067aa0ba902b7',
    1_795_600_000_000_000_500n,
    'payment.accepted',
    'rec-1',
    '{}',
    ...sdkRequest,
  );
  insert.run(
    1_795_600_000_000_000_000n,
    4,
    'error',
    null,
    'card declined',
    null,
    '{}',
    '{"free":"form"}',
    '{"structured":[1,2]}',
    null,
    null,
    1_795_600_000_000_000_000n,
    null,
    null,
    '{"$envelope":{"batch":"b"},"custom":true}',
    ...sdkRequest,
  );
  insert.run(
    1_795_600_000_000_000_002n,
    1,
    'debug',
    null,
    'curl says hi',
    null,
    '{}',
    null,
    null,
    null,
    null,
    1_795_600_000_000_000_002n,
    null,
    null,
    '{}',
    ...afterRestart,
  );
  // The newest log was deleted: its id must not be handed out again.
  insert.run(
    1n,
    6,
    'alert',
    null,
    'gone',
    null,
    '{}',
    null,
    null,
    null,
    null,
    1n,
    null,
    null,
    '{}',
    ...afterRestart,
  );
  db.exec('DELETE FROM logs WHERE id = 4');
  db.close();
}

/** A database as a version-3 receiver left it: one log of each level, ranked 1..6 (alert 6). */
function createVersion3Database(file: string): void {
  const db = new DatabaseSync(file);
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= 3)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(
      migration.version,
      migration.name,
      '2026-11-01T00:00:00.000Z',
    );
  }
  db.exec(`
    INSERT INTO accounts (id, username, created_at) VALUES (1, 'alice', '2026-11-01T00:00:00.000Z');
    INSERT INTO resources (id, uuid, owner_id, key, name, created_at)
      VALUES (1, '${CHECKOUT}', 1, 'checkout-api', 'Checkout API', '2026-11-01T00:00:00.000Z');
    INSERT INTO ingests (id, resource_id, resource_attrs, sdk, sdk_version, received_at, request_id)
      VALUES (1, 1, '{}', NULL, NULL, '2026-11-20T10:00:00.000Z', 'req-1');
  `);
  const insert = db.prepare(
    `INSERT INTO logs (resource_id, ingest_id, ts_ns, level_rank, message, attributes)
     VALUES (1, 1, ?, ?, ?, '{}')`,
  );
  // Version 3 ranked debug 1, info 2, warning 3, error 4, critical 5, alert 6.
  ['debug', 'info', 'warning', 'error', 'critical', 'alert'].forEach((level, i) => {
    insert.run(1_795_600_000_000_000_000n + BigInt(i), i + 1, level);
  });
  db.close();
}

describe('schema migrations', () => {
  let app: FastifyInstance | undefined;
  afterEach(() => app?.close());

  it('upgrades a version-2 database: its logs read back exactly as before', async () => {
    const file = join(dir, 'v2.db');
    createVersion2Database(file);
    app = receiver({ db: file });

    const { logs } = (await readLogs(app, '?order=asc')).json();
    const envelope1 = {
      resource: { 'service.name': 'checkout' },
      sdk: 'reslog',
      sdk_version: '0.1.0',
      received_at: '2026-11-20T10:00:00.000Z',
      request_id: 'req-1',
      // Stored before schema version 5 recorded the acting user.
      user: null,
    };
    expect(logs).toEqual([
      {
        id: 2,
        ts: '2026-11-25T09:46:40.000000000Z',
        level: 'error',
        severity_number: null,
        message: 'card declined',
        logger: null,
        attributes: {},
        extra: { free: 'form' },
        body: { structured: [1, 2] },
        trace_id: null,
        span_id: null,
        observed_ts: '2026-11-25T09:46:40.000000000Z',
        event_name: null,
        record_id: null,
        unknown_fields: { $envelope: { batch: 'b' }, custom: true },
        ...envelope1,
      },
      {
        id: 1,
        ts: '2026-11-25T09:46:40.000000001Z',
        level: 'info',
        severity_number: 9,
        message: 'payment accepted',
        logger: 'checkout.http',
        attributes: { 'http.route': '/pay', 'order.id': 42 },
        extra: null,
        body: null,
        trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
        span_id: '00f067aa0ba902b7',
        observed_ts: '2026-11-25T09:46:40.000000500Z',
        event_name: 'payment.accepted',
        record_id: 'rec-1',
        unknown_fields: {},
        ...envelope1,
      },
      {
        id: 3,
        ts: '2026-11-25T09:46:40.000000002Z',
        level: 'debug',
        severity_number: null,
        message: 'curl says hi',
        logger: null,
        attributes: {},
        extra: null,
        body: null,
        trace_id: null,
        span_id: null,
        observed_ts: '2026-11-25T09:46:40.000000002Z',
        event_name: null,
        record_id: null,
        unknown_fields: {},
        resource: {},
        sdk: null,
        sdk_version: null,
        received_at: '2026-11-20T11:00:00.000Z',
        request_id: 'req-1',
        user: null,
      },
    ]);

    const traced = (await readLogs(app, '?trace_id=4bf92f3577b34da6a3ce929d0e0e4736')).json();
    expect(traced.logs.map((l: { id: number }) => l.id)).toEqual([1]);
    const errors = (await readLogs(app, '?level=error')).json();
    expect(errors.logs.map((l: { id: number }) => l.id)).toEqual([2]);

    const response = await post(app, { message: 'after the upgrade' }, { key: KEYS.alice });
    expect(response.statusCode).toBe(202);
    const after = (await readLogs(app, '?q=after%20the%20upgrade')).json().logs;
    expect(after.map((l: { id: number }) => l.id)).toEqual([5]);
  });

  it('version 4 moves ranks to the service scale: alert between error and critical', async () => {
    const file = join(dir, 'v3.db');
    createVersion3Database(file);
    app = receiver({ db: file });
    const read = async (query = '') =>
      (await readLogs(app as FastifyInstance, `?order=asc${query}`))
        .json()
        .logs.map((l: { message: string; level: string }) => `${l.message}:${l.level}`);
    // Each log reads back as the level it was stored with.
    expect(await read()).toEqual([
      'debug:debug',
      'info:info',
      'warning:warning',
      'error:error',
      'critical:critical',
      'alert:alert',
    ]);
    expect(await read('&level=error')).toEqual(['error:error', 'critical:critical', 'alert:alert']);
    expect(await read('&level=alert')).toEqual(['critical:critical', 'alert:alert']);
    expect(await read('&level=critical')).toEqual(['critical:critical']);
    await app.close();
    const db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare('SELECT message, level_rank, level_name FROM logs ORDER BY id').all();
    db.close();
    expect(rows.map((row) => [row.message, row.level_rank, row.level_name])).toEqual([
      ['debug', 10, null],
      ['info', 20, null],
      ['warning', 30, null],
      ['error', 40, null],
      ['critical', 50, null],
      ['alert', 45, null],
    ]);
  });

  it('applies every migration to a new database once, and none again on reopening', async () => {
    const file = join(dir, 'new.db');
    app = receiver({ db: file });
    await app.close();
    app = receiver({ db: file });
    await app.ready();
    const db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    db.close();
    expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });
});
