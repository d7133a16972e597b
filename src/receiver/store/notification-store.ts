import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { HealthEvent } from '../../contract/read-answer.js';
import type { AlertLevel } from './settings-store.js';

export type NotificationKind = 'health_change' | 'log_alert';
export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** A health transition as a notification carries it: the history's event without its time. */
export type HealthDetail = Omit<HealthEvent, 'at'>;

export interface AlertDetail {
  first_message: string;
  first_level: string;
  first_ts: string;
}

/** A notification as its recipient reads it (GET /api/notifications). */
export interface NotificationView {
  id: number;
  kind: NotificationKind;
  /** `owner` for an account's resource, `team` for a team's. */
  resource: { uuid: string; key: string; name: string } & ({ owner: string } | { team: string });
  created_at: string;
  updated_at: string;
  read_at: string | null;
  health: HealthDetail | null;
  log_alert:
    | (AlertDetail & { level: AlertLevel; count: number; window_ends_at: string | null })
    | null;
  webhook: {
    url: string;
    state: DeliveryState;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
    delivered_at: string | null;
    next_attempt_at: string | null;
  } | null;
}

/** A delivery due for an attempt, with what is needed to build and sign it. */
export interface DueDelivery {
  notificationId: number;
  accountId: number;
  url: string;
  attempts: number;
}

interface Row {
  id: number;
  account_id: number;
  kind: NotificationKind;
  detail: string;
  alert_level: AlertLevel | null;
  count: number;
  window_ends_ms: number | null;
  created_at: string;
  updated_at: string;
  read_at: string | null;
  uuid: string;
  key: string;
  name: string;
  owner: string | null;
  team: string | null;
  d_url: string | null;
  d_state: DeliveryState | null;
  d_attempts: number | null;
  d_next: number | null;
  d_status: number | null;
  d_error: string | null;
  d_delivered: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toView(row: Row): NotificationView {
  const detail = JSON.parse(row.detail) as HealthDetail | AlertDetail;
  return {
    id: row.id,
    kind: row.kind,
    resource: {
      uuid: row.uuid,
      key: row.key,
      name: row.name,
      ...(row.team !== null ? { team: row.team } : { owner: row.owner ?? '' }),
    },
    created_at: row.created_at,
    updated_at: row.updated_at,
    read_at: row.read_at,
    health: row.kind === 'health_change' ? (detail as HealthDetail) : null,
    log_alert:
      row.kind === 'log_alert'
        ? {
            ...(detail as AlertDetail),
            level: row.alert_level as AlertLevel,
            count: row.count,
            window_ends_at: iso(row.window_ends_ms),
          }
        : null,
    webhook:
      row.d_url === null
        ? null
        : {
            url: row.d_url,
            state: row.d_state as DeliveryState,
            attempts: row.d_attempts ?? 0,
            last_status: row.d_status,
            last_error: row.d_error,
            delivered_at: row.d_delivered,
            next_attempt_at: row.d_state === 'pending' ? iso(row.d_next) : null,
          },
  };
}

const SELECT = `SELECT n.id, n.account_id, n.kind, n.detail, n.alert_level, n.count, n.window_ends_ms,
    n.created_at, n.updated_at, n.read_at, r.uuid, r.key, r.name, o.username AS owner, t.name AS team,
    d.url AS d_url, d.state AS d_state, d.attempts AS d_attempts, d.next_attempt_ms AS d_next,
    d.last_status AS d_status, d.last_error AS d_error, d.delivered_at AS d_delivered
  FROM notifications n
  JOIN resources r ON r.id = n.resource_id
  LEFT JOIN accounts o ON o.id = r.owner_id
  LEFT JOIN teams t ON t.id = r.team_id
  LEFT JOIN webhook_deliveries d ON d.notification_id = n.id`;

export interface NotificationQuery {
  resourceUuid?: string;
  unread?: boolean;
  /** Only notifications with a smaller id (the cursor). */
  beforeId?: number;
  limit: number;
}

export type NotificationStore = ReturnType<typeof createNotificationStore>;

/** Each member's inbox and the durable queue of webhook deliveries. */
export function createNotificationStore(db: DatabaseSync, now: () => string) {
  const s = {
    insert: db.prepare(
      `INSERT INTO notifications (account_id, resource_id, kind, detail, alert_level, count,
         window_ends_ms, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    openAlert: db.prepare(
      `SELECT id FROM notifications WHERE account_id = ? AND resource_id = ?
          AND kind = 'log_alert' AND window_ends_ms > ? ORDER BY id DESC LIMIT 1`,
    ),
    bump: db.prepare('UPDATE notifications SET count = count + ?, updated_at = ? WHERE id = ?'),
    byId: db.prepare(`${SELECT} WHERE n.id = ?`),
    markRead: db.prepare(
      'UPDATE notifications SET read_at = ? WHERE id = ? AND account_id = ? AND read_at IS NULL',
    ),
    enqueue: db.prepare(
      `INSERT INTO webhook_deliveries (notification_id, url, state, next_attempt_ms, updated_at)
       VALUES (?, ?, 'pending', ?, ?)`,
    ),
    due: db.prepare(
      `SELECT d.notification_id, n.account_id, d.url, d.attempts FROM webhook_deliveries d
         JOIN notifications n ON n.id = d.notification_id
        WHERE d.state = 'pending' AND d.next_attempt_ms <= ? ORDER BY d.next_attempt_ms LIMIT ?`,
    ),
    nextDue: db.prepare(
      "SELECT MIN(next_attempt_ms) AS next FROM webhook_deliveries WHERE state = 'pending'",
    ),
    recordAttempt: db.prepare(
      `UPDATE webhook_deliveries SET state = ?, attempts = ?, next_attempt_ms = ?, last_status = ?,
         last_error = ?, delivered_at = ?, updated_at = ? WHERE notification_id = ?`,
    ),
    pendingCount: db.prepare(
      "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'pending'",
    ),
  };

  return {
    insert(input: {
      accountId: number;
      resourceId: number;
      kind: NotificationKind;
      detail: HealthDetail | AlertDetail;
      alertLevel?: AlertLevel;
      count?: number;
      windowEndsMs?: number;
    }): number {
      const at = now();
      return Number(
        s.insert.run(
          input.accountId,
          input.resourceId,
          input.kind,
          JSON.stringify(input.detail),
          input.alertLevel ?? null,
          input.count ?? 1,
          input.windowEndsMs ?? null,
          at,
          at,
        ).lastInsertRowid,
      );
    },

    /** The member's log alert on this resource whose coalescing window is still open. */
    openAlert(accountId: number, resourceId: number, nowMs: number): number | undefined {
      const row = s.openAlert.get(accountId, resourceId, nowMs) as { id: number } | undefined;
      return row?.id;
    },

    addToAlert(id: number, count: number): void {
      s.bump.run(count, now(), id);
    },

    get(id: number): (NotificationView & { accountId: number }) | undefined {
      const row = s.byId.get(id) as Row | undefined;
      return row && { ...toView(row), accountId: row.account_id };
    },

    /** The account's notifications, newest first. */
    list(accountId: number, query: NotificationQuery): NotificationView[] {
      const where = ['n.account_id = ?'];
      const params: SQLInputValue[] = [accountId];
      if (query.resourceUuid !== undefined) {
        where.push('r.uuid = ?');
        params.push(query.resourceUuid.toLowerCase());
      }
      if (query.unread) where.push('n.read_at IS NULL');
      if (query.beforeId !== undefined) {
        where.push('n.id < ?');
        params.push(query.beforeId);
      }
      params.push(query.limit);
      const rows = db
        .prepare(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY n.id DESC LIMIT ?`)
        .all(...params) as unknown as Row[];
      return rows.map(toView);
    },

    markRead(accountId: number, id: number): void {
      s.markRead.run(now(), id, accountId);
    },

    enqueueDelivery(notificationId: number, url: string, dueMs: number): void {
      s.enqueue.run(notificationId, url, dueMs, now());
    },

    dueDeliveries(nowMs: number, limit: number): DueDelivery[] {
      const rows = s.due.all(nowMs, limit) as {
        notification_id: number;
        account_id: number;
        url: string;
        attempts: number;
      }[];
      return rows.map((row) => ({
        notificationId: row.notification_id,
        accountId: row.account_id,
        url: row.url,
        attempts: row.attempts,
      }));
    },

    nextDeliveryDueMs(): number | undefined {
      const row = s.nextDue.get() as { next: number | null } | undefined;
      return row?.next ?? undefined;
    },

    pendingDeliveries(): number {
      return (s.pendingCount.get() as { n: number }).n;
    },

    recordAttempt(
      notificationId: number,
      outcome: {
        state: DeliveryState;
        attempts: number;
        nextAttemptMs: number;
        status: number | null;
        error: string | null;
      },
    ): void {
      const at = now();
      s.recordAttempt.run(
        outcome.state,
        outcome.attempts,
        outcome.nextAttemptMs,
        outcome.status,
        outcome.error,
        outcome.state === 'delivered' ? at : null,
        at,
        notificationId,
      );
    },
  };
}
