import type { DatabaseSync } from 'node:sqlite';
import { createDirectoryStore, type DirectoryStore } from './directory-store.js';
import { createHealthStore, type HealthStore } from './health-store.js';
import { createIdempotencyStore, type IdempotencyStore } from './idempotency-store.js';
import { createLogStore, type LogStore } from './log-store.js';
import { createNotificationStore, type NotificationStore } from './notification-store.js';
import { openDatabase, transaction } from './open-database.js';
import { createSettingsStore, type SettingsStore } from './settings-store.js';
import { createTeamStore, type TeamStore } from './team-store.js';

export interface Store {
  readonly db: DatabaseSync;
  readonly directory: DirectoryStore;
  readonly teams: TeamStore;
  readonly logs: LogStore;
  readonly idempotency: IdempotencyStore;
  readonly settings: SettingsStore;
  readonly health: HealthStore;
  readonly notifications: NotificationStore;
  /** Runs `work` in one transaction (committed when it returns). */
  transaction<T>(work: () => T): T;
  /** Deletes every account, key, resource, member, log, notification and delivery. */
  reset(): void;
  close(): void;
}

/** Opens the database at `path` (`:memory:` by default) with all stores on it. */
export function createStore(path: string, now: () => string): Store {
  const db = openDatabase(path);
  const tables = [
    'webhook_deliveries',
    'notifications',
    'health_checks',
    'health_events',
    'idempotency_records',
    'logs',
    'ingests',
    'notification_settings',
    'collaborators',
    'resources',
    'team_members',
    'teams',
    'api_keys',
    'accounts',
  ];
  return {
    db,
    directory: createDirectoryStore(db, now),
    teams: createTeamStore(db, now),
    logs: createLogStore(db),
    idempotency: createIdempotencyStore(db),
    settings: createSettingsStore(db, now),
    health: createHealthStore(db, now),
    notifications: createNotificationStore(db, now),
    transaction: (work) => transaction(db, work),
    reset() {
      transaction(db, () => {
        for (const table of tables) db.exec(`DELETE FROM ${table}`);
        db.exec(`DELETE FROM sqlite_sequence WHERE name IN ('${tables.join("','")}')`);
      });
    },
    close() {
      if (db.isOpen) db.close();
    },
  };
}
