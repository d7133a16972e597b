import type { ApiClient } from '../api-client.ts';
import { NotificationList } from './notification-list.tsx';
import { NotificationSettingsForm } from './notification-settings-form.tsx';

/** The signed-in member's settings and notifications for one resource. */
export function NotificationsTab({ api, uuid }: { api: ApiClient; uuid: string }) {
  if (api.credential.kind === 'admin') {
    return (
      <p class="muted">Notifications belong to accounts; sign in with an API key to see yours.</p>
    );
  }
  return (
    <div class="notifications-tab">
      <h3>My settings</h3>
      <NotificationSettingsForm api={api} uuid={uuid} />
      <h3>My notifications</h3>
      <NotificationList api={api} resource={uuid} />
    </div>
  );
}
