import type { DatabaseSync } from 'node:sqlite';
import type {
  HealthEvent,
  HealthSource,
  HealthState,
  ProbeResult,
} from '../../contract/read-answer.js';

export type { HealthEvent, HealthSource, ProbeResult };

export interface HealthCheckConfig {
  url: string;
  interval_seconds: number;
  timeout_millis: number;
  expect_status: number;
}

export interface HealthCheck extends HealthCheckConfig {
  resourceId: number;
  consecutiveFailures: number;
  nextDueMs: number;
  lastResult: ProbeResult | null;
}

interface CheckRow {
  resource_id: number;
  url: string;
  interval_seconds: number;
  timeout_millis: number;
  expect_status: number;
  consecutive_failures: number;
  next_due_ms: number;
  last_result: string | null;
}

const toCheck = (row: CheckRow): HealthCheck => ({
  resourceId: row.resource_id,
  url: row.url,
  interval_seconds: row.interval_seconds,
  timeout_millis: row.timeout_millis,
  expect_status: row.expect_status,
  consecutiveFailures: row.consecutive_failures,
  nextDueMs: row.next_due_ms,
  lastResult: row.last_result === null ? null : (JSON.parse(row.last_result) as ProbeResult),
});

export type HealthStore = ReturnType<typeof createHealthStore>;

/** Health transition history and the health checks attached to resources. */
export function createHealthStore(db: DatabaseSync, now: () => string) {
  const s = {
    insertEvent: db.prepare(
      `INSERT INTO health_events (resource_id, from_state, to_state, reason, source, actor, probe, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    events: db.prepare(
      `SELECT from_state, to_state, reason, source, actor, probe, at FROM health_events
        WHERE resource_id = ? ORDER BY id DESC LIMIT ?`,
    ),
    putCheck: db.prepare(
      `INSERT INTO health_checks (resource_id, url, interval_seconds, timeout_millis,
         expect_status, consecutive_failures, next_due_ms, last_result, updated_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, NULL, ?)
       ON CONFLICT (resource_id) DO UPDATE SET url = excluded.url,
         interval_seconds = excluded.interval_seconds, timeout_millis = excluded.timeout_millis,
         expect_status = excluded.expect_status, consecutive_failures = 0,
         next_due_ms = excluded.next_due_ms, updated_at = excluded.updated_at`,
    ),
    deleteCheck: db.prepare('DELETE FROM health_checks WHERE resource_id = ?'),
    check: db.prepare('SELECT * FROM health_checks WHERE resource_id = ?'),
    due: db.prepare('SELECT * FROM health_checks WHERE next_due_ms <= ? ORDER BY next_due_ms'),
    nextDue: db.prepare('SELECT MIN(next_due_ms) AS next FROM health_checks'),
    recordProbe: db.prepare(
      `UPDATE health_checks SET consecutive_failures = ?, last_result = ?, next_due_ms = ?,
         updated_at = ? WHERE resource_id = ? AND url = ?`,
    ),
  };

  return {
    recordTransition(resourceId: number, event: HealthEvent): void {
      s.insertEvent.run(
        resourceId,
        event.from,
        event.to,
        event.reason,
        event.source,
        event.actor,
        event.probe === null ? null : JSON.stringify(event.probe),
        event.at,
      );
    },

    /** Transitions, newest first. */
    history(resourceId: number, limit: number): HealthEvent[] {
      const rows = s.events.all(resourceId, limit) as {
        from_state: HealthState;
        to_state: HealthState;
        reason: string | null;
        source: HealthSource;
        actor: string | null;
        probe: string | null;
        at: string;
      }[];
      return rows.map((row) => ({
        from: row.from_state,
        to: row.to_state,
        reason: row.reason,
        source: row.source,
        actor: row.actor,
        probe: row.probe === null ? null : (JSON.parse(row.probe) as ProbeResult),
        at: row.at,
      }));
    },

    /** Attaches (or replaces) a check; the first probe is due at `firstDueMs`. */
    putCheck(resourceId: number, config: HealthCheckConfig, firstDueMs: number): void {
      s.putCheck.run(
        resourceId,
        config.url,
        config.interval_seconds,
        config.timeout_millis,
        config.expect_status,
        firstDueMs,
        now(),
      );
    },

    deleteCheck(resourceId: number): boolean {
      return s.deleteCheck.run(resourceId).changes > 0;
    },

    check(resourceId: number): HealthCheck | undefined {
      const row = s.check.get(resourceId) as CheckRow | undefined;
      return row && toCheck(row);
    },

    due(nowMs: number): HealthCheck[] {
      return (s.due.all(nowMs) as unknown as CheckRow[]).map(toCheck);
    },

    /** Earliest due time of any check, or `undefined` when there is none. */
    nextDueMs(): number | undefined {
      const row = s.nextDue.get() as { next: number | null } | undefined;
      return row?.next ?? undefined;
    },

    /**
     * Stores a probe's outcome unless the check was replaced or removed meanwhile (the URL is
     * compared); returns whether it was stored.
     */
    recordProbe(check: HealthCheck, failures: number, result: ProbeResult, nextDueMs: number) {
      return (
        s.recordProbe.run(
          failures,
          JSON.stringify(result),
          nextDueMs,
          now(),
          check.resourceId,
          check.url,
        ).changes > 0
      );
    },
  };
}
