import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { type Level, levelRank } from '../levels.js';
import { formatTimestamp } from '../timestamps.js';

/** One validated log record, ready to store. */
export interface NewLog {
  tsNs: bigint;
  level: Level;
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
}

/** What a whole request says about all its records. */
export interface LogEnvelope {
  resource: Record<string, unknown>;
  sdk: string | null;
  sdkVersion: string | null;
  receivedAt: string;
  requestId: string;
}

/** A log as the read API returns it. */
export interface StoredLog {
  id: number;
  ts: string;
  level: Level;
  severity_number: number | null;
  message: string;
  logger: string | null;
  attributes: Record<string, unknown>;
  extra: unknown;
  body: unknown;
  trace_id: string | null;
  span_id: string | null;
  observed_ts: string | null;
  event_name: string | null;
  record_id: string | null;
  unknown_fields: Record<string, unknown>;
  resource: Record<string, unknown>;
  sdk: string | null;
  sdk_version: string | null;
  received_at: string;
  request_id: string;
}

export interface LogQuery {
  sinceNs?: bigint;
  untilNs?: bigint;
  minLevel?: Level;
  q?: string;
  traceId?: string;
  limit: number;
  order: 'asc' | 'desc';
  /** Position after which the page starts, from the previous page's cursor. */
  after?: { tsNs: bigint; id: number };
  /** Highest log id visible to this listing, fixed by its first page. */
  maxId?: number;
}

export interface LogPage {
  logs: StoredLog[];
  /** Highest id the listing may show (every later page keeps it). */
  maxId: number;
  hasMore: boolean;
}

interface LogRow {
  id: number;
  ts_ns: string;
  level: Level;
  severity_number: number | null;
  message: string;
  logger: string | null;
  attributes: string;
  extra: string | null;
  body: string | null;
  trace_id: string | null;
  span_id: string | null;
  observed_ts_ns: string | null;
  event_name: string | null;
  record_id: string | null;
  unknown_fields: string;
  resource_attrs: string;
  sdk: string | null;
  sdk_version: string | null;
  received_at: string;
  request_id: string;
}

const SELECT_COLUMNS = `id, CAST(ts_ns AS TEXT) AS ts_ns, level, severity_number, message, logger,
  attributes, extra, body, trace_id, span_id, CAST(observed_ts_ns AS TEXT) AS observed_ts_ns,
  event_name, record_id, unknown_fields, resource_attrs, sdk, sdk_version, received_at, request_id`;

function parseJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

function toStoredLog(row: LogRow): StoredLog {
  return {
    id: row.id,
    ts: formatTimestamp(BigInt(row.ts_ns)),
    level: row.level,
    severity_number: row.severity_number,
    message: row.message,
    logger: row.logger,
    attributes: JSON.parse(row.attributes) as Record<string, unknown>,
    extra: parseJson(row.extra),
    body: parseJson(row.body),
    trace_id: row.trace_id,
    span_id: row.span_id,
    observed_ts: row.observed_ts_ns === null ? null : formatTimestamp(BigInt(row.observed_ts_ns)),
    event_name: row.event_name,
    record_id: row.record_id,
    unknown_fields: JSON.parse(row.unknown_fields) as Record<string, unknown>,
    resource: JSON.parse(row.resource_attrs) as Record<string, unknown>,
    sdk: row.sdk,
    sdk_version: row.sdk_version,
    received_at: row.received_at,
    request_id: row.request_id,
  };
}

export type LogStore = ReturnType<typeof createLogStore>;

export function createLogStore(db: DatabaseSync) {
  const insert = db.prepare(
    `INSERT INTO logs (resource_id, ts_ns, level_rank, level, severity_number, message, logger,
       attributes, extra, body, trace_id, span_id, observed_ts_ns, event_name, record_id,
       unknown_fields, resource_attrs, sdk, sdk_version, received_at, request_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const count = db.prepare('SELECT COUNT(*) AS n FROM logs WHERE resource_id = ?');
  const newest = db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM logs');
  // Queries differ only in which filters are present: cache one statement per shape.
  const queries = new Map<string, StatementSync>();

  const stringify = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

  return {
    /** Inserts records of one resource; call inside the request's transaction. */
    insert(resourceId: number, logs: readonly NewLog[], envelope: LogEnvelope): void {
      const resourceJson = JSON.stringify(envelope.resource);
      for (const log of logs) {
        insert.run(
          resourceId,
          log.tsNs,
          levelRank(log.level),
          log.level,
          log.severityNumber,
          log.message,
          log.logger,
          JSON.stringify(log.attributes),
          stringify(log.extra),
          stringify(log.body),
          log.traceId,
          log.spanId,
          log.observedTsNs,
          log.eventName,
          log.recordId,
          JSON.stringify(log.unknownFields),
          resourceJson,
          envelope.sdk,
          envelope.sdkVersion,
          envelope.receivedAt,
          envelope.requestId,
        );
      }
    },

    count(resourceId: number): number {
      return (count.get(resourceId) as { n: number }).n;
    },

    /**
     * One page of a resource's logs ordered by (ts, id). The first page fixes `maxId`, so
     * logs that arrive while a client pages are not mixed into that listing.
     */
    query(resourceId: number, query: LogQuery): LogPage {
      const maxId = query.maxId ?? (newest.get() as { id: number }).id;
      const where = ['resource_id = ?', 'id <= ?'];
      const params: SQLInputValue[] = [resourceId, maxId];
      if (query.sinceNs !== undefined) {
        where.push('ts_ns >= ?');
        params.push(query.sinceNs);
      }
      if (query.untilNs !== undefined) {
        where.push('ts_ns < ?');
        params.push(query.untilNs);
      }
      if (query.minLevel !== undefined) {
        where.push('level_rank >= ?');
        params.push(levelRank(query.minLevel));
      }
      if (query.q !== undefined && query.q !== '') {
        where.push('instr(lower(message), lower(?)) > 0');
        params.push(query.q);
      }
      if (query.traceId !== undefined) {
        where.push('trace_id = ?');
        params.push(query.traceId);
      }
      const op = query.order === 'asc' ? '>' : '<';
      if (query.after) {
        where.push(`(ts_ns ${op} ? OR (ts_ns = ? AND id ${op} ?))`);
        params.push(query.after.tsNs, query.after.tsNs, query.after.id);
      }
      const direction = query.order === 'asc' ? 'ASC' : 'DESC';
      const sql = `SELECT ${SELECT_COLUMNS} FROM logs WHERE ${where.join(' AND ')}
        ORDER BY ts_ns ${direction}, id ${direction} LIMIT ?`;
      params.push(query.limit + 1);
      let statement = queries.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        queries.set(sql, statement);
      }
      const rows = statement.all(...params) as unknown as LogRow[];
      const hasMore = rows.length > query.limit;
      return { logs: rows.slice(0, query.limit).map(toStoredLog), maxId, hasMore };
    },
  };
}
