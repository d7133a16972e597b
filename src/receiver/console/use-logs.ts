import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ApiClient } from './api-client.ts';
import type { LogPage, StoredLog } from './api-types.ts';
import { type FollowState, followLogs } from './follow-logs.ts';
import { filterQuery, type LogFilters } from './log-filters.ts';

/** Logs per page of the listing and of each "load older". */
export const PAGE_SIZE = 100;

/**
 * The most rows the view keeps while the live tail adds records: beyond it the oldest leave
 * the view (and are counted in `evicted`), so a tab tailing a busy resource stays light.
 */
export const MAX_ROWS = 1000;

export interface LogsState {
  /** Newest first: live records on top, older pages below. */
  logs: StoredLog[];
  nextCursor: string | null;
  loading: boolean;
  loadingOlder: boolean;
  error: string | undefined;
  live: FollowState;
  liveDetail: string | undefined;
  /** Older records the live tail pushed out of the view (see MAX_ROWS). */
  evicted: number;
}

const INITIAL: LogsState = {
  logs: [],
  nextCursor: null,
  loading: true,
  loadingOlder: false,
  error: undefined,
  live: 'stopped',
  liveDetail: undefined,
  evicted: 0,
};

/**
 * A resource's logs for a set of filters, applied by the server: the first page newest first,
 * older pages on request (`next_cursor`), and, while `follow` is on, records as they are
 * acknowledged (the follow stream). Changing the filters aborts both and starts over.
 */
export function useLogs(api: ApiClient, path: string, filters: LogFilters, follow: boolean) {
  const [state, setState] = useState<LogsState>(INITIAL);
  const seen = useRef(new Set<number>());
  const maxId = useRef(0);
  // Which first page the follow stream continues; 0 while none is loaded, so that a change of
  // filters stops the old stream at once and the new one starts after the new first page.
  const [loaded, setLoaded] = useState(0);
  const pages = useRef(0);
  const filterKey = JSON.stringify(filterQuery(filters));

  useEffect(() => {
    const controller = new AbortController();
    seen.current = new Set();
    maxId.current = 0;
    setState(INITIAL);
    setLoaded(0);
    api
      .get<LogPage>(
        path,
        { ...filterQuery(filters), limit: PAGE_SIZE, order: 'desc' },
        controller.signal,
      )
      .then(
        (page) => {
          for (const log of page.logs) {
            seen.current.add(log.id);
            maxId.current = Math.max(maxId.current, log.id);
          }
          setState({ ...INITIAL, loading: false, logs: page.logs, nextCursor: page.next_cursor });
          pages.current += 1;
          setLoaded(pages.current);
        },
        (error: Error) => {
          if (controller.signal.aborted) return;
          setState({ ...INITIAL, loading: false, error: error.message });
        },
      );
    return () => controller.abort();
    // filterKey stands for the filters' query; api and path change with the resource.
  }, [api, path, filterKey]);

  useEffect(() => {
    if (!follow || loaded === 0) return;
    const controller = new AbortController();
    void followLogs({
      api,
      path,
      query: filterQuery(filters),
      afterId: maxId.current,
      signal: controller.signal,
      onState: (live, liveDetail) => setState((s) => ({ ...s, live, liveDetail })),
      onLogs: (logs) => {
        const fresh = logs.filter((log) => !seen.current.has(log.id));
        for (const log of fresh) {
          seen.current.add(log.id);
          maxId.current = Math.max(maxId.current, log.id);
        }
        if (fresh.length === 0) return;
        setState((s) => {
          const logs = [...fresh.reverse(), ...s.logs];
          if (logs.length <= MAX_ROWS) return { ...s, logs };
          // The oldest leave the view. Paging on from the old cursor would skip them, so
          // "load older" ends here; new filters (or a reload) start a fresh listing.
          const kept = logs.slice(0, MAX_ROWS);
          seen.current = new Set(kept.map((log) => log.id));
          return {
            ...s,
            logs: kept,
            nextCursor: null,
            evicted: s.evicted + logs.length - MAX_ROWS,
          };
        });
      },
    });
    return () => {
      controller.abort();
      setState((s) => ({ ...s, live: 'stopped', liveDetail: undefined }));
    };
  }, [loaded, follow]);

  const loadOlder = useCallback(() => {
    const cursor = state.nextCursor;
    if (cursor === null || state.loadingOlder) return;
    setState((s) => ({ ...s, loadingOlder: true }));
    api
      .get<LogPage>(path, { ...filterQuery(filters), limit: PAGE_SIZE, order: 'desc', cursor })
      .then(
        (page) => {
          const older = page.logs.filter((log) => !seen.current.has(log.id));
          for (const log of older) seen.current.add(log.id);
          setState((s) => ({
            ...s,
            loadingOlder: false,
            logs: [...s.logs, ...older],
            nextCursor: page.next_cursor,
          }));
        },
        (error: Error) => setState((s) => ({ ...s, loadingOlder: false, error: error.message })),
      );
  }, [api, path, filterKey, state.nextCursor, state.loadingOlder]);

  return { ...state, loadOlder };
}
