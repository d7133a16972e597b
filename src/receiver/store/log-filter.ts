import type { SQLInputValue } from 'node:sqlite';

/**
 * Filters of the read API and of follow (docs/receiver.md, "Read" and "Follow"), all applied
 * in SQL on the `logs` table aliased `l`.
 */
export interface LogFilter {
  sinceNs?: bigint;
  untilNs?: bigint;
  /** Lowest rank shown. */
  minRank?: number;
  /** Case-insensitive substring of the message. */
  q?: string;
  traceId?: string;
  /**
   * `logger=name`: exactly that logger; `logger=name.*`: that logger and every logger below
   * it (`name.x`, `name.x.y`), compared byte for byte.
   */
  logger?: { name: string; descendants: boolean };
}

/** The filter's query string form `name` or `name.*` as a {@link LogFilter} logger. */
export function parseLoggerFilter(text: string): { name: string; descendants: boolean } {
  return text.endsWith('.*')
    ? { name: text.slice(0, -2), descendants: true }
    : { name: text, descendants: false };
}

/**
 * WHERE clauses (joined with AND) and their parameters. Every clause is sargable except `q`:
 * `logger` uses `logs_resource_logger_ts`, `trace_id` `logs_resource_trace`, the others ride
 * on `logs_resource_ts_level` (docs/receiver.md, "Read: a million records").
 */
export function filterClauses(filter: LogFilter): { where: string[]; params: SQLInputValue[] } {
  const where: string[] = [];
  const params: SQLInputValue[] = [];
  if (filter.sinceNs !== undefined) {
    where.push('l.ts_ns >= ?');
    params.push(filter.sinceNs);
  }
  if (filter.untilNs !== undefined) {
    where.push('l.ts_ns < ?');
    params.push(filter.untilNs);
  }
  if (filter.minRank !== undefined) {
    where.push('l.level_rank >= ?');
    params.push(filter.minRank);
  }
  if (filter.q !== undefined && filter.q !== '') {
    where.push('instr(lower(l.message), lower(?)) > 0');
    params.push(filter.q);
  }
  if (filter.traceId !== undefined) {
    where.push('l.trace_id = ?');
    params.push(filter.traceId);
  }
  if (filter.logger !== undefined) {
    const { name, descendants } = filter.logger;
    if (descendants) {
      // `name` itself, or `name.` followed by anything: '/' is the byte after '.', so the
      // range is exactly the names that start with `name.` (BINARY collation compares bytes).
      where.push('(l.logger = ? OR (l.logger >= ? AND l.logger < ?))');
      params.push(name, `${name}.`, `${name}/`);
    } else {
      where.push('l.logger = ?');
      params.push(name);
    }
  }
  return { where, params };
}
