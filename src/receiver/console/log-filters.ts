import { LEVELS } from '../../contract/levels.ts';
import type { Query } from './api-client.ts';

/**
 * The minimum levels the filter offers, lowest first: the service's order, debug 10 < info 20
 * < warning 30 < error 40 < alert 45 < critical 50 (docs/receiver.md, "Levels").
 */
export const FILTER_LEVELS = LEVELS;

/** The log filters the console applies through the read API's query parameters. */
export interface LogFilters {
  level: string;
  logger: string;
  q: string;
  /** `datetime-local` values, read as UTC. */
  since: string;
  until: string;
  traceId: string;
}

export const NO_FILTERS: LogFilters = {
  level: '',
  logger: '',
  q: '',
  since: '',
  until: '',
  traceId: '',
};

export const TRACE_ID_PATTERN = /^[0-9a-fA-F]{32}$/;

/** A `datetime-local` value (`2026-11-23T02:30` or with seconds) as RFC 3339 UTC. */
export function utcTimestamp(local: string): string | undefined {
  if (local === '') return undefined;
  const withSeconds = /T\d\d:\d\d$/.test(local) ? `${local}:00` : local;
  return `${withSeconds}Z`;
}

/** Why the filters cannot be sent as they are, or `undefined` when they can. */
export function filterProblem(filters: LogFilters): string | undefined {
  if (filters.traceId !== '' && !TRACE_ID_PATTERN.test(filters.traceId.trim())) {
    return 'a trace id is 32 hex characters';
  }
  if (filters.since !== '' && filters.until !== '' && filters.since >= filters.until) {
    return '"since" must be before "until"';
  }
  return undefined;
}

/** The query parameters of the read API (and of its follow stream) for these filters. */
export function filterQuery(filters: LogFilters): Query {
  return {
    level: filters.level || undefined,
    logger: filters.logger.trim() || undefined,
    q: filters.q || undefined,
    since: utcTimestamp(filters.since),
    until: utcTimestamp(filters.until),
    trace_id: filters.traceId.trim().toLowerCase() || undefined,
  };
}
