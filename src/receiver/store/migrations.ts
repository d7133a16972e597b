import type { DatabaseSync } from 'node:sqlite';

/**
 * Versioned schema migrations, applied in order inside one transaction each. Never edit a
 * released migration: add the next one. `schema_migrations` records what ran.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * Set when the migration rebuilds a table other tables reference: it then runs with
   * foreign keys off (else dropping the old table would cascade into its children) and is
   * committed only when `PRAGMA foreign_key_check` finds nothing broken
   * (https://www.sqlite.org/lang_altertable.html#otheralter).
   */
  rebuildsReferencedTable?: boolean;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, keys, resources, members, logs, idempotency',
    sql: `
      CREATE TABLE accounts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        username TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        digest BLOB NOT NULL UNIQUE,
        label TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE TABLE resources (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        owner_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        name TEXT NOT NULL,
        health_state TEXT NOT NULL DEFAULT 'unknown'
          CHECK (health_state IN ('unknown', 'healthy', 'degraded', 'down')),
        health_changed_at TEXT,
        created_at TEXT NOT NULL,
        UNIQUE (owner_id, key)
      );
      CREATE TABLE collaborators (
        resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('viewer', 'editor')),
        created_at TEXT NOT NULL,
        PRIMARY KEY (resource_id, account_id)
      );
      CREATE INDEX collaborators_account ON collaborators(account_id);
      -- One row per member (owner or collaborator) and resource: each member's own settings.
      CREATE TABLE notification_settings (
        resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        enabled INTEGER NOT NULL DEFAULT 1,
        health_changes INTEGER NOT NULL DEFAULT 1,
        min_log_level TEXT NOT NULL DEFAULT 'error',
        channels TEXT NOT NULL DEFAULT '[]',
        updated_at TEXT NOT NULL,
        PRIMARY KEY (resource_id, account_id)
      );
      CREATE TABLE logs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        ts_ns INTEGER NOT NULL,
        level_rank INTEGER NOT NULL,
        level TEXT NOT NULL,
        severity_number INTEGER,
        message TEXT NOT NULL,
        logger TEXT,
        attributes TEXT NOT NULL,
        extra TEXT,
        body TEXT,
        trace_id TEXT,
        span_id TEXT,
        observed_ts_ns INTEGER,
        event_name TEXT,
        record_id TEXT,
        unknown_fields TEXT NOT NULL,
        resource_attrs TEXT NOT NULL,
        sdk TEXT,
        sdk_version TEXT,
        received_at TEXT NOT NULL,
        request_id TEXT NOT NULL
      );
      CREATE INDEX logs_resource_ts ON logs(resource_id, ts_ns, id);
      CREATE INDEX logs_resource_trace ON logs(resource_id, trace_id);
      CREATE TABLE idempotency_records (
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        idempotency_key TEXT NOT NULL,
        body_digest TEXT NOT NULL,
        status INTEGER NOT NULL,
        response TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        PRIMARY KEY (account_id, resource_id, idempotency_key)
      );
      CREATE INDEX idempotency_created ON idempotency_records(created_at_ms);
    `,
  },
  {
    version: 2,
    name: 'management API: settings columns, webhook secrets, health history, checks, notifications, deliveries',
    sql: `
      -- A member's own settings (docs/receiver.md, "Notification settings"):
      -- {enabled, health_changes, log_alert_level, webhook_url}.
      -- log_alert_level NULL means "no log alerts"; levels below warning become warning.
      ALTER TABLE notification_settings ADD COLUMN log_alert_level TEXT DEFAULT 'error'
        CHECK (log_alert_level IS NULL OR log_alert_level IN ('warning', 'error', 'critical', 'alert'));
      ALTER TABLE notification_settings ADD COLUMN webhook_url TEXT;
      -- 1 once the member changed them through the API: a re-applied seed no longer does.
      ALTER TABLE notification_settings ADD COLUMN changed_by_member INTEGER NOT NULL DEFAULT 0;
      UPDATE notification_settings SET log_alert_level = CASE
        WHEN min_log_level IN ('warning', 'error', 'critical', 'alert') THEN min_log_level
        ELSE 'warning' END;
      ALTER TABLE notification_settings DROP COLUMN min_log_level;
      ALTER TABLE notification_settings DROP COLUMN channels;
      -- Signs this account's webhooks; created on first use.
      ALTER TABLE accounts ADD COLUMN webhook_secret TEXT;
      CREATE TABLE health_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        from_state TEXT NOT NULL,
        to_state TEXT NOT NULL,
        reason TEXT,
        source TEXT NOT NULL CHECK (source IN ('manual', 'check', 'seed')),
        actor TEXT,
        probe TEXT,
        at TEXT NOT NULL
      );
      CREATE INDEX health_events_resource ON health_events(resource_id, id);
      CREATE TABLE health_checks (
        resource_id INTEGER PRIMARY KEY REFERENCES resources(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        interval_seconds INTEGER NOT NULL,
        timeout_millis INTEGER NOT NULL,
        expect_status INTEGER NOT NULL,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        next_due_ms INTEGER NOT NULL,
        last_result TEXT,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX health_checks_due ON health_checks(next_due_ms);
      CREATE TABLE notifications (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('health_change', 'log_alert')),
        detail TEXT NOT NULL,
        alert_level TEXT,
        count INTEGER NOT NULL DEFAULT 1,
        window_ends_ms INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        read_at TEXT
      );
      CREATE INDEX notifications_account ON notifications(account_id, id);
      CREATE INDEX notifications_open_alert ON notifications(account_id, resource_id, kind, window_ends_ms);
      -- One webhook delivery per notification: pending rows survive a restart.
      CREATE TABLE webhook_deliveries (
        notification_id INTEGER PRIMARY KEY REFERENCES notifications(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_ms INTEGER NOT NULL,
        last_status INTEGER,
        last_error TEXT,
        delivered_at TEXT,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_ms);
    `,
  },
  {
    version: 3,
    name: 'narrower log rows: one ingests row per request holds its envelope',
    sql: `
      -- A request's envelope (resource attributes, sdk, sdk_version, received_at,
      -- request_id) was repeated on each of its rows; now it is stored once per commit,
      -- which makes rows narrower (docs/receiver.md, "Storage").
      -- No foreign key from logs to ingests: it would need an index on logs(ingest_id) for
      -- deletes; both tables cascade with their resource instead.
      CREATE TABLE ingests (
        id INTEGER PRIMARY KEY,
        resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        resource_attrs TEXT NOT NULL,
        sdk TEXT,
        sdk_version TEXT,
        received_at TEXT NOT NULL,
        request_id TEXT NOT NULL
      );
      -- Request ids restart with the process: a request is its whole envelope, not its id.
      INSERT INTO ingests (resource_id, resource_attrs, sdk, sdk_version, received_at, request_id)
        SELECT resource_id, resource_attrs, sdk, sdk_version, received_at, request_id FROM logs
        GROUP BY resource_id, request_id, received_at, resource_attrs, sdk, sdk_version
        ORDER BY MIN(id);
      CREATE INDEX ingests_envelope ON ingests(resource_id, request_id, received_at);
      -- level is derived from level_rank; unknown_fields is NULL when there are none.
      CREATE TABLE logs_v3 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        resource_id INTEGER NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        ingest_id INTEGER NOT NULL,
        ts_ns INTEGER NOT NULL,
        level_rank INTEGER NOT NULL,
        severity_number INTEGER,
        message TEXT NOT NULL,
        logger TEXT,
        attributes TEXT NOT NULL,
        extra TEXT,
        body TEXT,
        trace_id TEXT,
        span_id TEXT,
        observed_ts_ns INTEGER,
        event_name TEXT,
        record_id TEXT,
        unknown_fields TEXT
      );
      INSERT INTO logs_v3 (id, resource_id, ingest_id, ts_ns, level_rank, severity_number,
          message, logger, attributes, extra, body, trace_id, span_id, observed_ts_ns,
          event_name, record_id, unknown_fields)
        SELECT l.id, l.resource_id, i.id, l.ts_ns, l.level_rank, l.severity_number, l.message,
          l.logger, l.attributes, l.extra, l.body, l.trace_id, l.span_id, l.observed_ts_ns,
          l.event_name, l.record_id, NULLIF(l.unknown_fields, '{}')
        FROM logs l JOIN ingests i
          ON i.resource_id = l.resource_id AND i.request_id = l.request_id
          AND i.received_at = l.received_at AND i.resource_attrs = l.resource_attrs
          AND i.sdk IS l.sdk AND i.sdk_version IS l.sdk_version
        ORDER BY l.id;
      -- Keep the id sequence: ids of deleted logs are never handed out again.
      DELETE FROM sqlite_sequence WHERE name = 'logs_v3';
      INSERT INTO sqlite_sequence (name, seq)
        SELECT 'logs_v3', seq FROM sqlite_sequence WHERE name = 'logs';
      DROP TABLE logs;
      ALTER TABLE logs_v3 RENAME TO logs;
      DROP INDEX ingests_envelope;
      CREATE INDEX ingests_resource ON ingests(resource_id);
      -- The rowid ends every index entry, so (resource_id, ts_ns) already orders by
      -- (ts_ns, id); listing id as well stored it twice.
      CREATE INDEX logs_resource_ts ON logs(resource_id, ts_ns);
      -- trace_id = ? implies trace_id IS NOT NULL, so lookups use this partial index, and
      -- logs without a trace (most of them) cost no index entry.
      CREATE INDEX logs_resource_trace ON logs(resource_id, trace_id) WHERE trace_id IS NOT NULL;
    `,
  },
  {
    version: 4,
    name: 'log levels: ranks on the service scale, alert below critical, names as sent',
    sql: `
      -- Ranks were 1..6 for debug, info, warning, error, critical, alert; now the service's
      -- scale (docs/protocol.md, "Levels"): debug 10, info 20, warning 30, error 40,
      -- alert 45, critical 50, so that alert sorts between error and critical.
      UPDATE logs SET level_rank = CASE level_rank
        WHEN 1 THEN 10 WHEN 2 THEN 20 WHEN 3 THEN 30 WHEN 4 THEN 40
        WHEN 5 THEN 50 WHEN 6 THEN 45 ELSE level_rank END;
      -- The level as sent when it is not the canonical name of its rank (Python's
      -- "level 25", "notice", "notset"); NULL for the six canonical names.
      ALTER TABLE logs ADD COLUMN level_name TEXT;
    `,
  },
  {
    version: 5,
    name: 'teams: team members, resources owned by an account or a team, the acting user of ingests',
    rebuildsReferencedTable: true,
    sql: `
      -- Teams own resources as accounts do (docs/receiver.md, "Teams"). Team names are their
      -- own namespace: paths say /u/{username} or /team/{team}.
      CREATE TABLE teams (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE team_members (
        team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
        created_at TEXT NOT NULL,
        PRIMARY KEY (team_id, account_id)
      );
      CREATE INDEX team_members_account ON team_members(account_id);
      -- Exactly one owner, an account or a team; keys unique per owner (NULLs never clash).
      CREATE TABLE resources_v5 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        owner_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
        team_id INTEGER REFERENCES teams(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        name TEXT NOT NULL,
        health_state TEXT NOT NULL DEFAULT 'unknown'
          CHECK (health_state IN ('unknown', 'healthy', 'degraded', 'down')),
        health_changed_at TEXT,
        created_at TEXT NOT NULL,
        CHECK ((owner_id IS NULL) <> (team_id IS NULL)),
        UNIQUE (owner_id, key),
        UNIQUE (team_id, key)
      );
      INSERT INTO resources_v5 (id, uuid, owner_id, team_id, key, name, health_state,
          health_changed_at, created_at)
        SELECT id, uuid, owner_id, NULL, key, name, health_state, health_changed_at, created_at
        FROM resources ORDER BY id;
      -- Keep the id sequence: ids of deleted resources are never handed out again.
      DELETE FROM sqlite_sequence WHERE name = 'resources_v5';
      INSERT INTO sqlite_sequence (name, seq)
        SELECT 'resources_v5', seq FROM sqlite_sequence WHERE name = 'resources';
      -- Foreign keys are off (rebuildsReferencedTable): the children of resources keep
      -- their rows and, after the rename, reference the new table.
      DROP TABLE resources;
      ALTER TABLE resources_v5 RENAME TO resources;
      -- Who wrote each request (the API key's account); NULL for requests stored before.
      ALTER TABLE ingests ADD COLUMN acting_user TEXT;
    `,
  },
  {
    version: 6,
    name: 'logs by logger: the read and follow filter logger= (docs/receiver.md, "Read")',
    sql: `
      -- logger = ? (and the range of logger=name.*) then newest first: the page is read in
      -- index order. Partial: logs without a logger cost no index entry.
      CREATE INDEX logs_resource_logger_ts ON logs(resource_id, logger, ts_ns)
        WHERE logger IS NOT NULL;
      -- The level in the time index: a newest-first page with level= checks each entry's
      -- rank in the index and reads only matching rows, so a rare level (or one nothing
      -- has) costs an index scan, not a table lookup per record. Same entries, one more
      -- integer each: no extra index to maintain on ingest.
      CREATE INDEX logs_resource_ts_level ON logs(resource_id, ts_ns, id, level_rank);
      DROP INDEX logs_resource_ts;
    `,
  },
];

/** Brings the schema up to the newest version; returns the versions that were applied. */
export function migrate(db: DatabaseSync): number[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as
    | { version: number | null }
    | undefined;
  const current = row?.version ?? 0;
  const newest = MIGRATIONS.at(-1)?.version ?? 0;
  if (current > newest) {
    throw new Error(
      `database schema version ${current} is newer than this receiver knows (${newest})`,
    );
  }
  const applied: number[] = [];
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    const rebuild = migration.rebuildsReferencedTable === true;
    // The pragma is a no-op inside a transaction: switch it before BEGIN, restore it after.
    const foreignKeys = (db.prepare('PRAGMA foreign_keys').get() as { foreign_keys: number })
      .foreign_keys;
    if (rebuild) db.exec('PRAGMA foreign_keys = OFF');
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(migration.sql);
      if (rebuild && db.prepare('PRAGMA foreign_key_check').all().length > 0) {
        throw new Error(`migration ${migration.version} left broken foreign keys`);
      }
      record.run(migration.version, migration.name, new Date().toISOString());
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    } finally {
      if (rebuild) db.exec(`PRAGMA foreign_keys = ${foreignKeys}`);
    }
    applied.push(migration.version);
  }
  return applied;
}
