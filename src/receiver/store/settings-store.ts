import type { DatabaseSync } from 'node:sqlite';
import type { Level } from '../../contract/levels.js';

/** Levels a member may ask log alerts for (at or above), lowest first: alert is below critical. */
export const ALERT_LEVELS = [
  'warning',
  'error',
  'alert',
  'critical',
] as const satisfies readonly Level[];
export type AlertLevel = (typeof ALERT_LEVELS)[number];

/** One member's own notification settings for one resource (docs/receiver.md, "Notification settings"). */
export interface NotificationSettings {
  enabled: boolean;
  health_changes: boolean;
  /** Minimum level of a log alert; `null`: no log alerts. */
  log_alert_level: AlertLevel | null;
  webhook_url: string | null;
}

/** What a new member gets: notified of health changes and of logs at `error` or above. */
export const DEFAULT_SETTINGS: Readonly<NotificationSettings> = Object.freeze({
  enabled: true,
  health_changes: true,
  log_alert_level: 'error',
  webhook_url: null,
});

/** A current member of a resource (owner or collaborator) with their settings. */
export interface Member {
  accountId: number;
  username: string;
  settings: NotificationSettings;
}

interface SettingsRow {
  account_id: number;
  username: string;
  enabled: number;
  health_changes: number;
  log_alert_level: AlertLevel | null;
  webhook_url: string | null;
}

const toSettings = (row: SettingsRow): NotificationSettings => ({
  enabled: row.enabled === 1,
  health_changes: row.health_changes === 1,
  log_alert_level: row.log_alert_level,
  webhook_url: row.webhook_url,
});

export type SettingsStore = ReturnType<typeof createSettingsStore>;

/** Per-member notification settings, keyed by (resource, account). */
export function createSettingsStore(db: DatabaseSync, now: () => string) {
  const s = {
    get: db.prepare(
      `SELECT n.account_id, a.username, n.enabled, n.health_changes, n.log_alert_level, n.webhook_url
         FROM notification_settings n JOIN accounts a ON a.id = n.account_id
        WHERE n.resource_id = ? AND n.account_id = ?`,
    ),
    upsert: db.prepare(
      `INSERT INTO notification_settings
         (resource_id, account_id, enabled, health_changes, log_alert_level, webhook_url,
          changed_by_member, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (resource_id, account_id) DO UPDATE SET enabled = excluded.enabled,
         health_changes = excluded.health_changes, log_alert_level = excluded.log_alert_level,
         webhook_url = excluded.webhook_url, changed_by_member = excluded.changed_by_member,
         updated_at = excluded.updated_at`,
    ),
    changedByMember: db.prepare(
      'SELECT changed_by_member FROM notification_settings WHERE resource_id = ? AND account_id = ?',
    ),
    // Only current members: a settings row without a membership never receives anything.
    // Members of the owning team who never changed their settings have no row: defaults.
    members: db.prepare(
      `WITH m (account_id) AS (
          SELECT owner_id FROM resources WHERE id = :r AND owner_id IS NOT NULL
          UNION SELECT account_id FROM collaborators WHERE resource_id = :r
          UNION SELECT tm.account_id FROM team_members tm
                  JOIN resources r ON r.team_id = tm.team_id WHERE r.id = :r)
       SELECT m.account_id, a.username,
              COALESCE(n.enabled, 1) AS enabled, COALESCE(n.health_changes, 1) AS health_changes,
              CASE WHEN n.account_id IS NULL THEN 'error' ELSE n.log_alert_level END
                AS log_alert_level,
              n.webhook_url
         FROM m JOIN accounts a ON a.id = m.account_id
         LEFT JOIN notification_settings n ON n.resource_id = :r AND n.account_id = m.account_id
        ORDER BY a.username`,
    ),
  };

  return {
    /** The member's settings (the defaults when none were stored). */
    get(resourceId: number, accountId: number): NotificationSettings {
      const row = s.get.get(resourceId, accountId) as SettingsRow | undefined;
      return row ? toSettings(row) : { ...DEFAULT_SETTINGS };
    },

    /** Stores settings; `byMember` marks them as the member's own choice (the API). */
    put(
      resourceId: number,
      accountId: number,
      settings: NotificationSettings,
      byMember: boolean,
    ): void {
      s.upsert.run(
        resourceId,
        accountId,
        settings.enabled ? 1 : 0,
        settings.health_changes ? 1 : 0,
        settings.log_alert_level,
        settings.webhook_url,
        byMember ? 1 : 0,
        now(),
      );
    },

    /** Whether the member changed these settings through the API (a seed keeps off them). */
    changedByMember(resourceId: number, accountId: number): boolean {
      const row = s.changedByMember.get(resourceId, accountId) as
        | { changed_by_member: number }
        | undefined;
      return row?.changed_by_member === 1;
    },

    /** Every current member of the resource with their own settings. */
    members(resourceId: number): Member[] {
      return (s.members.all({ r: resourceId }) as unknown as SettingsRow[]).map((row) => ({
        accountId: row.account_id,
        username: row.username,
        settings: toSettings(row),
      }));
    },
  };
}
