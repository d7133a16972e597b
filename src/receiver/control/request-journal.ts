import type { FaultAction } from './fault-rules.js';

/** One request as the journal (`GET /_receiver/requests`) shows it. API keys never appear. */
export interface JournalEntry {
  request_id: string;
  time: string;
  method: string;
  path: string;
  status: number | null;
  duration_ms: number | null;
  /** Account of the API key, when it was valid. */
  username: string | null;
  /** `rlk_<id>` of a generated key or a digest prefix of another; never the key. */
  key: string | null;
  resource: string | null;
  idempotency_key: string | null;
  replayed: boolean;
  accepted: number | null;
  rejected: number | null;
  headers: Record<string, string>;
  fault: { id: string; action: FaultAction } | null;
}

/** Headers whose values are secrets: shown as `[REDACTED]`. */
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'cookie', 'proxy-authorization']);

export function redactHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name] = SECRET_HEADERS.has(name.toLowerCase())
      ? '[REDACTED]'
      : Array.isArray(value)
        ? value.join(', ')
        : value;
  }
  return result;
}

export interface RequestJournal {
  record(entry: JournalEntry): void;
  /** Newest last; optionally only one resource's, at most `limit`. */
  list(filter?: { resource?: string; limit?: number }): JournalEntry[];
  clear(): void;
}

/** A ring buffer of the last `size` requests. */
export function createRequestJournal(size: number): RequestJournal {
  const entries: JournalEntry[] = [];
  return {
    record(entry) {
      entries.push(entry);
      if (entries.length > size) entries.splice(0, entries.length - size);
    },
    list(filter = {}) {
      const selected =
        filter.resource === undefined
          ? entries
          : entries.filter((entry) => entry.resource === filter.resource);
      return selected.slice(-(filter.limit ?? size));
    },
    clear() {
      entries.length = 0;
    },
  };
}
