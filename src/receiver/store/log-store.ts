import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { StoredLog } from '../../contract/read-answer.js';
import { parseStoredJson } from '../ingest/exact-numbers.js';
import { canonicalLevelOfRank, levelNameOfRank } from '../ingest/levels.js';
import { formatTimestamp } from '../ingest/timestamps.js';
import { filterClauses, type LogFilter } from './log-filter.js';
import { fromSqlText, sqlText } from './sql-text.js';

/** One validated log record, ready to store. */
export interface NewLog {
  tsNs: bigint;
  /** The level as read back: canonical, or the name as sent (docs/protocol.md, "Levels"). */
  level: string;
  /** Rank on the service's scale (debug 10 … alert 45, critical 50). */
  levelRank: number;
  severityNumber: number | null;
  message: string;
  logger: string | null;
  attributes: Record<string, unknown>;
  extra: unknown;
  body: unknown;
  traceId: string | null;
  spanId: string | null;
  observedTsNs: bigint | null;
  eventName: string | null;
  recordId: string | null;
  unknownFields: Record<string, unknown>;
  /** JSON texts of `attributes`, `extra` and `body` when validation already made them. */
  json?: { attributes: string; extra: string | null; body: string | null };
}

/** What a whole request says about all its records. */
export interface LogEnvelope {
  resource: Record<string, unknown>;
  sdk: string | null;
  sdkVersion: string | null;
  receivedAt: string;
  requestId: string;
  /** Who wrote the request: the API key's account (docs/receiver.md, "Acting user"). */
  actingUser: string;
}

export type { StoredLog };

export interface LogQuery extends LogFilter {
  limit: number;
  order: 'asc' | 'desc';
  /** Position after which the page starts, from the previous page's cursor. */
  after?: { tsNs: bigint; id: number };
  /** Highest log id visible to this listing, fixed by its first page. */
  maxId?: number;
}

/** One page of a store query (the read API turns it into `{logs, next_cursor}`). */
export interface LogQueryPage {
  logs: StoredLog[];
  /** Highest id the listing may show (every later page keeps it). */
  maxId: number;
  hasMore: boolean;
}

interface LogRow {
  id: number;
  ts_ns: string;
  level_rank: number;
  // Text that had lone surrogates is a UTF-16 BLOB (sql-text.ts).
  level_name: string | Uint8Array | null;
  severity_number: number | null;
  message: string | Uint8Array;
  logger: string | Uint8Array | null;
  attributes: string;
  extra: string | null;
  body: string | null;
  trace_id: string | null;
  span_id: string | null;
  observed_ts_ns: string | null;
  event_name: string | Uint8Array | null;
  record_id: string | Uint8Array | null;
  unknown_fields: string | null;
  resource_attrs: string;
  sdk: string | Uint8Array | null;
  sdk_version: string | Uint8Array | null;
  received_at: string;
  request_id: string;
  acting_user: string | null;
}

const SELECT_COLUMNS = `l.id, CAST(l.ts_ns AS TEXT) AS ts_ns, l.level_rank, l.level_name, l.severity_number,
  l.message, l.logger, l.attributes, l.extra, l.body, l.trace_id, l.span_id,
  CAST(l.observed_ts_ns AS TEXT) AS observed_ts_ns, l.event_name, l.record_id, l.unknown_fields,
  i.resource_attrs, i.sdk, i.sdk_version, i.received_at, i.request_id, i.acting_user`;

const INSERT_COLUMNS = `resource_id, ingest_id, ts_ns, level_rank, level_name, severity_number,
  message, logger, attributes, extra, body, trace_id, span_id, observed_ts_ns, event_name,
  record_id, unknown_fields`;
const PARAMS_PER_ROW = 17;
/**
 * Rows per INSERT statement: each `run()` crosses from JS into SQLite once, so a multi-row
 * statement pays that and the statement's own overhead once per chunk instead of per row.
 */
const ROWS_PER_INSERT = 50;
/** Ids one follow read looks at, at most (≈ 10 ms of scanning). */
const FOLLOW_SCAN_IDS = 20_000;

function insertSql(rows: number): string {
  const row = `(${new Array(PARAMS_PER_ROW).fill('?').join(', ')})`;
  return `INSERT INTO logs (${INSERT_COLUMNS}) VALUES ${new Array(rows).fill(row).join(', ')}`;
}

function parseJson(text: string | null): unknown {
  return text === null ? null : parseStoredJson(text);
}

function toStoredLog(row: LogRow): StoredLog {
  return {
    id: row.id,
    ts: formatTimestamp(BigInt(row.ts_ns)),
    level: fromSqlText(row.level_name) ?? levelNameOfRank(row.level_rank),
    severity_number: row.severity_number,
    message: fromSqlText(row.message),
    logger: fromSqlText(row.logger),
    attributes: parseStoredJson(row.attributes) as Record<string, unknown>,
    extra: parseJson(row.extra),
    body: parseJson(row.body),
    trace_id: row.trace_id,
    span_id: row.span_id,
    observed_ts: row.observed_ts_ns === null ? null : formatTimestamp(BigInt(row.observed_ts_ns)),
    event_name: fromSqlText(row.event_name),
    record_id: fromSqlText(row.record_id),
    unknown_fields:
      row.unknown_fields === null
        ? {}
        : (parseStoredJson(row.unknown_fields) as Record<string, unknown>),
    resource: parseStoredJson(row.resource_attrs) as Record<string, unknown>,
    sdk: fromSqlText(row.sdk),
    sdk_version: fromSqlText(row.sdk_version),
    received_at: row.received_at,
    request_id: row.request_id,
    user: row.acting_user,
  };
}

/** Whether an object has no own enumerable keys, without building the key array. */
function isEmpty(value: Record<string, unknown>): boolean {
  for (const _ in value) return false;
  return true;
}

export type LogStore = ReturnType<typeof createLogStore>;

export function createLogStore(db: DatabaseSync) {
  const insertIngest = db.prepare(
    `INSERT INTO ingests (resource_id, resource_attrs, sdk, sdk_version, received_at, request_id,
       acting_user) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertChunk = db.prepare(insertSql(ROWS_PER_INSERT));
  const insertOne = db.prepare(insertSql(1));
  const count = db.prepare('SELECT COUNT(*) AS n FROM logs WHERE resource_id = ?');
  const newest = db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM logs');
  // The last id handed out (AUTOINCREMENT never hands one out again), lower only after a reset.
  const sequence = db.prepare(
    "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'logs'), 0) AS id",
  );
  // Queries differ only in which filters are present: cache one statement per shape.
  const queries = new Map<string, StatementSync>();
  const prepared = (sql: string): StatementSync => {
    let statement = queries.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      queries.set(sql, statement);
    }
    return statement;
  };
  // Reused between calls: filled in place, so a chunk allocates no new array.
  const chunkParams: SQLInputValue[] = new Array(PARAMS_PER_ROW * ROWS_PER_INSERT).fill(null);
  const oneParams: SQLInputValue[] = new Array(PARAMS_PER_ROW).fill(null);

  const stringify = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

  function fill(
    params: SQLInputValue[],
    at: number,
    resourceId: number,
    ingestId: number,
    log: NewLog,
  ) {
    params[at] = resourceId;
    params[at + 1] = ingestId;
    params[at + 2] = log.tsNs;
    params[at + 3] = log.levelRank;
    // Only a name that is not the rank's canonical one is stored (Python's `level 25`, …).
    params[at + 4] = canonicalLevelOfRank(log.levelRank) === log.level ? null : sqlText(log.level);
    params[at + 5] = log.severityNumber;
    params[at + 6] = sqlText(log.message);
    params[at + 7] = sqlText(log.logger);
    const json = log.json;
    params[at + 8] = json ? json.attributes : JSON.stringify(log.attributes);
    params[at + 9] = json ? json.extra : stringify(log.extra);
    params[at + 10] = json ? json.body : stringify(log.body);
    params[at + 11] = log.traceId;
    params[at + 12] = log.spanId;
    params[at + 13] = log.observedTsNs;
    params[at + 14] = sqlText(log.eventName);
    params[at + 15] = sqlText(log.recordId);
    params[at + 16] = isEmpty(log.unknownFields) ? null : JSON.stringify(log.unknownFields);
  }

  return {
    /**
     * Inserts records of one resource with their request's envelope (stored once, in
     * `ingests`); call inside the request's transaction.
     */
    insert(resourceId: number, logs: readonly NewLog[], envelope: LogEnvelope): void {
      if (logs.length === 0) return;
      const ingestId = Number(
        insertIngest.run(
          resourceId,
          JSON.stringify(envelope.resource),
          sqlText(envelope.sdk),
          sqlText(envelope.sdkVersion),
          envelope.receivedAt,
          envelope.requestId,
          envelope.actingUser,
        ).lastInsertRowid,
      );
      let index = 0;
      for (; index + ROWS_PER_INSERT <= logs.length; index += ROWS_PER_INSERT) {
        for (let row = 0; row < ROWS_PER_INSERT; row++) {
          fill(
            chunkParams,
            row * PARAMS_PER_ROW,
            resourceId,
            ingestId,
            logs[index + row] as NewLog,
          );
        }
        insertChunk.run(...chunkParams);
      }
      for (; index < logs.length; index++) {
        fill(oneParams, 0, resourceId, ingestId, logs[index] as NewLog);
        insertOne.run(...oneParams);
      }
    },

    count(resourceId: number): number {
      return (count.get(resourceId) as { n: number }).n;
    },

    /**
     * One page of a resource's logs ordered by (ts, id). The first page fixes `maxId`, so
     * logs that arrive while a client pages are not mixed into that listing.
     */
    query(resourceId: number, query: LogQuery): LogQueryPage {
      const maxId = query.maxId ?? (newest.get() as { id: number }).id;
      const filter = filterClauses(query);
      const where = ['l.resource_id = ?', 'l.id <= ?', ...filter.where];
      const params: SQLInputValue[] = [resourceId, maxId, ...filter.params];
      const op = query.order === 'asc' ? '>' : '<';
      if (query.after) {
        where.push(`(l.ts_ns ${op} ? OR (l.ts_ns = ? AND l.id ${op} ?))`);
        params.push(query.after.tsNs, query.after.tsNs, query.after.id);
      }
      const direction = query.order === 'asc' ? 'ASC' : 'DESC';
      // CROSS JOIN keeps logs the outer loop: the page is read in index order from
      // logs_resource_ts_level (or logs_resource_logger_ts) and each row looks its ingest up
      // by primary key.
      const sql = `SELECT ${SELECT_COLUMNS} FROM logs l CROSS JOIN ingests i ON i.id = l.ingest_id
        WHERE ${where.join(' AND ')}
        ORDER BY l.ts_ns ${direction}, l.id ${direction} LIMIT ?`;
      params.push(query.limit + 1);
      const rows = prepared(sql).all(...params) as unknown as LogRow[];
      const hasMore = rows.length > query.limit;
      return { logs: rows.slice(0, query.limit).map(toStoredLog), maxId, hasMore };
    },

    /** The highest log id of any resource: a follower started now sends what comes after. */
    newestId(): number {
      return (sequence.get() as { id: number }).id;
    },

    /**
     * Follow's read (docs/receiver.md, "Follow"): up to `limit` matching logs after `afterId`,
     * in id (commit) order, looking at no more than `FOLLOW_SCAN_IDS` ids at once so that one
     * read never holds the event loop long, whatever the filter. `scannedTo`: every id up to
     * it was looked at (the next read starts there, even when nothing matched); `more`: ids
     * beyond it exist.
     */
    follow(
      resourceId: number,
      filter: LogFilter,
      afterId: number,
      limit: number,
    ): { logs: StoredLog[]; scannedTo: number; more: boolean } {
      const newestId = (sequence.get() as { id: number }).id;
      // Ids start again after `POST /_receiver/reset`: so does the follower.
      if (newestId < afterId) afterId = 0;
      const uptoId = Math.min(newestId, afterId + FOLLOW_SCAN_IDS);
      if (uptoId <= afterId) return { logs: [], scannedTo: afterId, more: false };
      const clauses = filterClauses(filter);
      // `+l.resource_id` keeps the resource's indexes out: the id range is read in rowid
      // order, so what one read costs is bounded by the range, not by the resource's size.
      const sql = `SELECT ${SELECT_COLUMNS} FROM logs l CROSS JOIN ingests i ON i.id = l.ingest_id
        WHERE ${['+l.resource_id = ?', 'l.id > ?', 'l.id <= ?', ...clauses.where].join(' AND ')}
        ORDER BY l.id LIMIT ?`;
      const rows = prepared(sql).all(
        resourceId,
        afterId,
        uptoId,
        ...clauses.params,
        limit,
      ) as unknown as LogRow[];
      const full = rows.length === limit;
      const scannedTo = full ? (rows.at(-1) as LogRow).id : uptoId;
      return { logs: rows.map(toStoredLog), scannedTo, more: scannedTo < newestId };
    },

    /** `EXPLAIN QUERY PLAN` of the read API's first page for `query` (tests, docs). */
    plan(resourceId: number, query: LogQuery): string[] {
      const filter = filterClauses(query);
      const direction = query.order === 'asc' ? 'ASC' : 'DESC';
      const sql = `EXPLAIN QUERY PLAN SELECT ${SELECT_COLUMNS} FROM logs l CROSS JOIN ingests i
        ON i.id = l.ingest_id WHERE ${['l.resource_id = ?', 'l.id <= ?', ...filter.where].join(' AND ')}
        ORDER BY l.ts_ns ${direction}, l.id ${direction} LIMIT ?`;
      const rows = db.prepare(sql).all(resourceId, Number.MAX_SAFE_INTEGER, ...filter.params, 1);
      return rows.map((row) => String((row as { detail: string }).detail));
    },
  };
}
