import type { ApiClient } from '../api-client.ts';
import type { HealthAnswer } from '../api-types.ts';
import { formatTs } from '../format.ts';
import { useApiGet } from '../use-api-get.ts';
import { ErrorNote } from './error-note.tsx';
import { HealthBadge } from './health-badge.tsx';

/** The resource's health state, its check and its history, newest first. */
export function HealthTab({ api, uuid }: { api: ApiClient; uuid: string }) {
  const { data, error } = useApiGet<HealthAnswer>(
    api,
    `/api/resources/${encodeURIComponent(uuid)}/health`,
    { limit: 100 },
  );
  if (error) return <ErrorNote message={error.message} />;
  if (!data) return <p class="muted">Loading health…</p>;
  return (
    <section class="health-tab">
      <p>
        Now <HealthBadge state={data.state} />{' '}
        <span class="muted">since {formatTs(data.changed_at)}</span>
      </p>
      {data.check && (
        <p class="muted">
          Checked every {data.check.interval_seconds} s at{' '}
          <span class="mono">{data.check.url}</span>
          {data.check.last_result &&
            ` — last probe ${data.check.last_result.ok ? 'ok' : 'failed'} at ${formatTs(data.check.last_result.at)}`}
        </p>
      )}
      <h3>History</h3>
      {data.history.length === 0 ? (
        <p class="muted">No transitions yet.</p>
      ) : (
        <table class="history">
          <thead>
            <tr>
              <th>When (UTC)</th>
              <th>Change</th>
              <th>Reason</th>
              <th>Source</th>
            </tr>
          </thead>
          <tbody>
            {data.history.map((event) => (
              <tr key={`${event.at}-${event.to}`}>
                <td class="mono">{formatTs(event.at)}</td>
                <td>
                  <HealthBadge state={event.from} /> → <HealthBadge state={event.to} />
                </td>
                <td>{event.reason ?? event.probe?.error ?? ''}</td>
                <td>
                  {event.source}
                  {event.actor ? ` (${event.actor})` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
