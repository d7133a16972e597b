import { formatTimestamp } from '../ingest/timestamps.js';
import type { Store } from '../store/create-store.js';
import type { HealthState, Resource } from '../store/directory-store.js';
import type { HealthSource, ProbeResult } from '../store/health-store.js';
import type { NewLog } from '../store/log-store.js';
import { type LogAlertSummary, summariseLogs } from './log-alert-summary.js';

export interface HealthChange {
  state: HealthState;
  reason: string | null;
  source: HealthSource;
  /** Username of whoever set it by hand; `null` for checks. */
  actor: string | null;
  probe: ProbeResult | null;
}

export interface HealthOutcome {
  state: HealthState;
  changed: boolean;
  changed_at: string | null;
}

/** Turns monitor events (health transitions, log alerts) into each member's notifications. */
export interface Monitor {
  /**
   * Sets a resource's health. A transition (a state different from the current one) is
   * recorded in the history and fanned out, all in the caller's transaction.
   */
  applyHealth(resource: Resource, change: HealthChange): HealthOutcome;
  /** `applyHealth` in its own transaction. */
  setHealth(resource: Resource, change: HealthChange): HealthOutcome;
  /**
   * Called after an ingest commit: summarises the batch now (cheap) and evaluates log
   * alerts on the next turn of the event loop, after the answer is on its way.
   */
  logsCommitted(resourceId: number, logs: readonly NewLog[]): void;
  /** Evaluates queued log alerts now (also done before the database closes). */
  flush(): void;
}

export interface MonitorOptions {
  store: Store;
  clock: () => number;
  /** Log alerts of one member and resource within this window make one notification. */
  coalesceWindowMillis: number;
  /** Called when a webhook delivery was queued, so the worker can pick it up at once. */
  deliveryQueued: () => void;
  onError: (error: unknown) => void;
}

export function createMonitor(options: MonitorOptions): Monitor {
  const { store, clock } = options;
  const queue: { resourceId: number; summary: LogAlertSummary }[] = [];
  let scheduled: NodeJS.Immediate | undefined;

  const applyHealth = (resource: Resource, change: HealthChange): HealthOutcome => {
    const current = store.directory.resourceById(resource.id);
    if (!current) return { state: change.state, changed: false, changed_at: null };
    if (current.health === change.state) {
      return { state: current.health, changed: false, changed_at: current.healthChangedAt };
    }
    const at = new Date(clock()).toISOString();
    store.directory.setHealth(resource.id, change.state);
    const detail = {
      from: current.health,
      to: change.state,
      reason: change.reason,
      source: change.source,
      actor: change.actor,
      probe: change.probe,
    };
    store.health.recordTransition(resource.id, { ...detail, at });
    let queued = false;
    for (const member of store.settings.members(resource.id)) {
      const { settings } = member;
      if (!settings.enabled || !settings.health_changes) continue;
      const id = store.notifications.insert({
        accountId: member.accountId,
        resourceId: resource.id,
        kind: 'health_change',
        detail,
      });
      if (settings.webhook_url !== null) {
        store.notifications.enqueueDelivery(id, settings.webhook_url, clock());
        queued = true;
      }
    }
    if (queued) queueMicrotask(options.deliveryQueued);
    const changedAt = store.directory.resourceById(resource.id)?.healthChangedAt ?? at;
    return { state: change.state, changed: true, changed_at: changedAt };
  };

  const evaluate = (resourceId: number, summary: LogAlertSummary, nowMs: number): boolean => {
    let queued = false;
    for (const member of store.settings.members(resourceId)) {
      const { settings } = member;
      if (!settings.enabled || settings.log_alert_level === null) continue;
      const hit = summary.atOrAbove(settings.log_alert_level);
      if (!hit) continue;
      const open = store.notifications.openAlert(member.accountId, resourceId, nowMs);
      if (open !== undefined) {
        store.notifications.addToAlert(open, hit.count);
        continue;
      }
      const windowEndsMs = nowMs + options.coalesceWindowMillis;
      const id = store.notifications.insert({
        accountId: member.accountId,
        resourceId,
        kind: 'log_alert',
        alertLevel: settings.log_alert_level,
        count: hit.count,
        windowEndsMs,
        detail: {
          first_message: hit.first.message,
          first_level: hit.first.level,
          first_ts: formatTimestamp(hit.first.tsNs),
        },
      });
      // The webhook carries the final count, so it goes out when the window closes.
      if (settings.webhook_url !== null) {
        store.notifications.enqueueDelivery(id, settings.webhook_url, windowEndsMs);
        queued = true;
      }
    }
    return queued;
  };

  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (queue.length === 0 || !store.db.isOpen) return;
    const batch = queue.splice(0, queue.length);
    const nowMs = clock();
    try {
      const queued = store.transaction(() =>
        batch.reduce(
          (any, { resourceId, summary }) => evaluate(resourceId, summary, nowMs) || any,
          false,
        ),
      );
      if (queued) options.deliveryQueued();
    } catch (error) {
      options.onError(error);
    }
  };

  return {
    applyHealth,
    setHealth: (resource, change) => store.transaction(() => applyHealth(resource, change)),
    logsCommitted(resourceId, logs) {
      const summary = summariseLogs(logs);
      if (!summary) return;
      queue.push({ resourceId, summary });
      scheduled ??= setImmediate(flush);
    },
    flush,
  };
}
