/* The shapes of the receiver's answers the console reads (docs/receiver.md, "Management API"
 * and "Read"); fields the console does not show are left out. */

import type {
  HealthEvent,
  HealthState,
  LogPage,
  ProbeResult,
  StoredLog,
} from '../../contract/read-answer.ts';

// The read side's shapes are the receiver's own (src/contract/read-answer.ts).
export type { HealthEvent, HealthState, LogPage, StoredLog };
export type Probe = ProbeResult;

export interface ApiResource {
  uuid: string;
  key: string;
  name: string;
  owner?: string;
  team?: string;
  role: string;
  health: HealthState;
  created_at: string;
}

export interface HealthAnswer {
  state: HealthState;
  changed_at: string | null;
  history: HealthEvent[];
  check: { url: string; interval_seconds: number; last_result: Probe | null } | null;
}

export interface ApiNotification {
  id: number;
  kind: 'health_change' | 'log_alert';
  resource: { uuid: string; key: string; name: string; owner?: string; team?: string };
  created_at: string;
  updated_at: string;
  read_at: string | null;
  health: { from: string; to: string; reason: string | null } | null;
  log_alert: { level: string; count: number; first_message: string } | null;
}

export interface NotificationSettings {
  enabled: boolean;
  health_changes: boolean;
  log_alert_level: string | null;
  webhook_url: string | null;
}

export interface Collaborators {
  owner?: string;
  team?: string;
  collaborators: { username: string; role: string }[];
}

/** Where a resource's data plane lives: under its owning account or team. */
export function logsPath(resource: Pick<ApiResource, 'uuid' | 'owner' | 'team'>): string {
  const base =
    resource.team !== undefined
      ? `/team/${encodeURIComponent(resource.team)}/resources`
      : `/u/${encodeURIComponent(resource.owner ?? '')}/resources`;
  return `${base}/${encodeURIComponent(resource.uuid)}/logs/`;
}
