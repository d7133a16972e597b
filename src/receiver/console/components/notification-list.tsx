import { useState } from 'preact/hooks';
import type { ApiClient } from '../api-client.ts';
import type { ApiNotification } from '../api-types.ts';
import { formatTs } from '../format.ts';
import { routeHref } from '../route.ts';
import { useApiGet } from '../use-api-get.ts';
import { ErrorNote } from './error-note.tsx';

function summary(notification: ApiNotification): string {
  if (notification.health) {
    const { from, to, reason } = notification.health;
    return `health ${from} → ${to}${reason ? `: ${reason}` : ''}`;
  }
  if (notification.log_alert) {
    const { level, count, first_message } = notification.log_alert;
    return `${count} × ${level} or above, first: ${first_message}`;
  }
  return notification.kind;
}

/** The signed-in account's notifications (of one resource, or all), newest first. */
export function NotificationList({ api, resource }: { api: ApiClient; resource?: string }) {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const { data, error, reload } = useApiGet<{ notifications: ApiNotification[] }>(
    api,
    '/api/notifications',
    { resource, unread: unreadOnly ? 'true' : undefined, limit: 100 },
  );
  const markRead = async (id: number) => {
    await api.send('POST', `/api/notifications/${id}/read`);
    reload();
  };
  return (
    <section class="notifications">
      <label>
        <input
          type="checkbox"
          checked={unreadOnly}
          onChange={(event) => setUnreadOnly(event.currentTarget.checked)}
        />{' '}
        Unread only
      </label>
      {error && <ErrorNote message={error.message} />}
      {data && data.notifications.length === 0 && <p class="muted">Nothing here.</p>}
      <ul>
        {data?.notifications.map((n) => (
          <li key={n.id} class={n.read_at ? 'read' : 'unread'}>
            <span class="mono">{formatTs(n.updated_at)}</span>{' '}
            {resource === undefined && (
              <a href={routeHref({ page: 'resource', uuid: n.resource.uuid, tab: 'logs' })}>
                {n.resource.name}
              </a>
            )}{' '}
            <span>{summary(n)}</span>{' '}
            {n.read_at === null && (
              <button type="button" onClick={() => markRead(n.id)}>
                Mark read
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
