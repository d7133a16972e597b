import type { ApiClient } from '../api-client.ts';
import { NotificationList } from './notification-list.tsx';

/** Every notification of the signed-in account. */
export function InboxPage({ api }: { api: ApiClient }) {
  return (
    <section class="page">
      <h2>Inbox</h2>
      <NotificationList api={api} />
    </section>
  );
}
