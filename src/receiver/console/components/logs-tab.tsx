import { useState } from 'preact/hooks';
import type { ApiClient } from '../api-client.ts';
import { type ApiResource, logsPath } from '../api-types.ts';
import { type LogFilters, NO_FILTERS } from '../log-filters.ts';
import { MAX_ROWS, useLogs } from '../use-logs.ts';
import { ErrorNote } from './error-note.tsx';
import { LiveStatus } from './live-status.tsx';
import { LogDetail } from './log-detail.tsx';
import { LogFilterBar } from './log-filter-bar.tsx';
import { LogTable } from './log-table.tsx';

/** A resource's logs: filters, live tail, the listing with "load older", a record's detail. */
export function LogsTab({ api, resource }: { api: ApiClient; resource: ApiResource }) {
  const [filters, setFilters] = useState<LogFilters>(NO_FILTERS);
  const [follow, setFollow] = useState(true);
  const [selectedId, setSelectedId] = useState<number | undefined>();
  const logs = useLogs(api, logsPath(resource), filters, follow);
  const selected = logs.logs.find((log) => log.id === selectedId);

  return (
    <div class="logs-tab">
      <LogFilterBar filters={filters} onApply={setFilters} />
      <div class="logs-toolbar">
        <label class="follow">
          <input
            type="checkbox"
            name="follow"
            checked={follow}
            onChange={(event) => setFollow(event.currentTarget.checked)}
          />{' '}
          Live tail
        </label>
        <LiveStatus state={logs.live} detail={logs.liveDetail} follow={follow} />
        <span class="muted count" data-testid="log-count">
          {logs.logs.length} shown
        </span>
      </div>
      {logs.error !== undefined && <ErrorNote message={logs.error} />}
      {logs.evicted > 0 && (
        <p class="muted evicted" data-testid="evicted">
          {logs.evicted} older {logs.evicted === 1 ? 'record' : 'records'} left this view: while
          tailing it keeps the newest {MAX_ROWS}. They are still stored: reload the page or change
          the filters to page through them.
        </p>
      )}
      <div class={selected ? 'logs-body with-detail' : 'logs-body'}>
        <div class="logs-list">
          {logs.loading ? (
            <p class="muted">Loading logs…</p>
          ) : logs.logs.length === 0 ? (
            <p class="muted empty">No logs match these filters yet.</p>
          ) : (
            <LogTable
              logs={logs.logs}
              selectedId={selectedId}
              onSelect={(log) => setSelectedId(log.id)}
            />
          )}
          {logs.nextCursor !== null && (
            <button
              type="button"
              class="load-older"
              disabled={logs.loadingOlder}
              onClick={logs.loadOlder}
            >
              {logs.loadingOlder ? 'Loading…' : 'Load older'}
            </button>
          )}
        </div>
        {selected && (
          <LogDetail
            log={selected}
            onClose={() => setSelectedId(undefined)}
            onTrace={(traceId) => setFilters({ ...NO_FILTERS, traceId })}
          />
        )}
      </div>
    </div>
  );
}
