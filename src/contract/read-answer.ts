/**
 * What the receiver's read side answers (docs/receiver.md, "Read" and "Health"): written by
 * its store and routes, read by the web console and the testcontainers module, so each shape
 * is defined once.
 */

/** A log as the read API returns it. */
export interface StoredLog {
  id: number;
  ts: string;
  level: string;
  severity_number: number | null;
  message: string;
  logger: string | null;
  attributes: Record<string, unknown>;
  extra: unknown;
  body: unknown;
  trace_id: string | null;
  span_id: string | null;
  observed_ts: string | null;
  event_name: string | null;
  record_id: string | null;
  unknown_fields: Record<string, unknown>;
  resource: Record<string, unknown>;
  sdk: string | null;
  sdk_version: string | null;
  received_at: string;
  request_id: string;
  /** The account that wrote the request; `null` for logs stored before schema version 5. */
  user: string | null;
}

/** One page of `GET …/logs/`. */
export interface LogPage {
  logs: StoredLog[];
  next_cursor: string | null;
}

/** A resource's health: `unknown` until first set. */
export type HealthState = 'unknown' | 'healthy' | 'degraded' | 'down';

/** Who changed a resource's health: a user, its health check, or the seed. */
export type HealthSource = 'manual' | 'check' | 'seed';

/** What one probe of a health check saw. */
export interface ProbeResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  duration_ms: number;
  at: string;
}

/** One health transition, as the history lists it (newest first). */
export interface HealthEvent {
  from: HealthState;
  to: HealthState;
  reason: string | null;
  source: HealthSource;
  actor: string | null;
  probe: ProbeResult | null;
  at: string;
}
