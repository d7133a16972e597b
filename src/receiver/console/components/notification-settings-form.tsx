import { useEffect, useState } from 'preact/hooks';
import type { ApiClient } from '../api-client.ts';
import type { NotificationSettings } from '../api-types.ts';
import { useApiGet } from '../use-api-get.ts';
import { ErrorNote } from './error-note.tsx';

const ALERT_LEVELS = ['warning', 'error', 'alert', 'critical'];

/** The signed-in member's own notification settings for one resource. */
export function NotificationSettingsForm({ api, uuid }: { api: ApiClient; uuid: string }) {
  const path = `/api/resources/${encodeURIComponent(uuid)}/notification-settings`;
  const { data, error } = useApiGet<NotificationSettings>(api, path);
  const [draft, setDraft] = useState<NotificationSettings | undefined>();
  const [status, setStatus] = useState<string | undefined>();
  useEffect(() => setDraft(data), [data]);
  if (error) return <ErrorNote message={error.message} />;
  if (!draft) return <p class="muted">Loading settings…</p>;

  const save = async (event: Event) => {
    event.preventDefault();
    try {
      const saved = await api.send<NotificationSettings>('PUT', path, {
        ...draft,
        webhook_url: draft.webhook_url?.trim() || null,
      });
      setDraft(saved);
      setStatus('Saved.');
    } catch (caught) {
      setStatus((caught as Error).message);
    }
  };
  return (
    <form class="settings" onSubmit={save} aria-label="Notification settings">
      <label>
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(e) => setDraft({ ...draft, enabled: e.currentTarget.checked })}
        />{' '}
        Notify me about this resource
      </label>
      <label>
        <input
          type="checkbox"
          checked={draft.health_changes}
          onChange={(e) => setDraft({ ...draft, health_changes: e.currentTarget.checked })}
        />{' '}
        Health changes
      </label>
      <label>
        Log alerts at or above{' '}
        <select
          value={draft.log_alert_level ?? ''}
          onChange={(e) => setDraft({ ...draft, log_alert_level: e.currentTarget.value || null })}
        >
          <option value="">none</option>
          {ALERT_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
        </select>
      </label>
      <label>
        Webhook URL{' '}
        <input
          type="url"
          value={draft.webhook_url ?? ''}
          placeholder="https://…"
          onInput={(e) => setDraft({ ...draft, webhook_url: e.currentTarget.value })}
        />
      </label>
      <button type="submit">Save</button>
      {status !== undefined && <span class="muted"> {status}</span>}
    </form>
  );
}
