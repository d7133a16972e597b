import { Agent, request } from 'undici';
import type { Store } from '../store/create-store.js';
import type { HealthState } from '../store/directory-store.js';
import type { HealthCheck, ProbeResult } from '../store/health-store.js';
import type { Monitor } from './monitor.js';
import { createPollingWorker, type PollingWorker } from './polling-worker.js';

export interface HealthCheckerOptions {
  store: Store;
  monitor: Monitor;
  clock: () => number;
  /** Consecutive failed probes after which the state is `down` (one failure: `degraded`). */
  failuresUntilDown: number;
  /** Longest sleep between looks for due checks (due times are read from `clock`). */
  pollMillis: number;
  log: { warn(object: object, message: string): void };
}

/**
 * Probes the health checks attached to resources when they are due. `kick()` looks for due
 * checks now (one was just attached); `stop()` aborts probes in flight and discards their
 * results.
 */
export type HealthChecker = PollingWorker;

/** The state a probe leads to: `healthy`, else `degraded` until the threshold, then `down`. */
export function stateAfterProbe(ok: boolean, failures: number, failuresUntilDown: number) {
  const state: HealthState = ok ? 'healthy' : failures >= failuresUntilDown ? 'down' : 'degraded';
  return state;
}

export function createHealthChecker(options: HealthCheckerOptions): HealthChecker {
  const { store, clock } = options;
  const agent = new Agent({ connections: 4, keepAliveTimeout: 1000 });
  const inFlight = new Map<number, Promise<void>>();

  const probe = async (check: HealthCheck, signal: AbortSignal): Promise<ProbeResult> => {
    const started = performance.now();
    const at = new Date(clock()).toISOString();
    const done = (status: number | null, error: string | null): ProbeResult => ({
      ok: status === check.expect_status,
      status,
      error:
        error ??
        (status === check.expect_status
          ? null
          : `answered ${status}, expected ${check.expect_status}`),
      duration_ms: Math.round(performance.now() - started),
      at,
    });
    try {
      const response = await request(check.url, {
        method: 'GET',
        dispatcher: agent,
        headers: { 'user-agent': 'reslog-receiver health check' },
        headersTimeout: check.timeout_millis,
        bodyTimeout: check.timeout_millis,
        signal: AbortSignal.any([signal, AbortSignal.timeout(check.timeout_millis)]),
      });
      await response.body.dump({ limit: 64 * 1024 });
      return done(response.statusCode, null);
    } catch (cause) {
      const err = cause as Error & { code?: string };
      const timedOut = err.name === 'TimeoutError' || err.code === 'UND_ERR_HEADERS_TIMEOUT';
      return done(
        null,
        timedOut ? `timed out after ${check.timeout_millis} ms` : (err.code ?? err.message),
      );
    }
  };

  const run = async (check: HealthCheck, signal: AbortSignal) => {
    const result = await probe(check, signal);
    if (signal.aborted || !store.db.isOpen) return;
    const failures = result.ok ? 0 : check.consecutiveFailures + 1;
    const state = stateAfterProbe(result.ok, failures, options.failuresUntilDown);
    store.transaction(() => {
      // Replaced or removed while probing: this result belongs to a check that is gone.
      if (
        !store.health.recordProbe(check, failures, result, clock() + check.interval_seconds * 1000)
      ) {
        return;
      }
      const resource = store.directory.resourceById(check.resourceId);
      if (!resource) return;
      options.monitor.applyHealth(resource, {
        state,
        reason: result.ok ? `probe answered ${result.status}` : `probe failed: ${result.error}`,
        source: 'check',
        actor: null,
        probe: result,
      });
    });
  };

  const worker = createPollingWorker({
    name: 'health checker',
    clock,
    pollMillis: options.pollMillis,
    log: options.log,
    isOpen: () => store.db.isOpen,
    // A pass starts every due check that is not in flight and returns: each probe runs on its
    // own and kicks the worker when it ends.
    async pass(signal) {
      for (const check of store.health.due(clock())) {
        if (inFlight.has(check.resourceId)) continue;
        const running = run(check, signal)
          .catch((error: unknown) => options.log.warn({ err: error }, 'health check failed'))
          .finally(() => {
            inFlight.delete(check.resourceId);
            worker.kick();
          });
        inFlight.set(check.resourceId, running);
      }
    },
    // Checks already due are in flight, and each kicks the worker when it ends: wait for the
    // next one not yet due.
    nextDueMs() {
      const next = store.health.nextDueMs();
      return next === undefined || next <= clock() ? undefined : next;
    },
    async onStop() {
      await Promise.allSettled(inFlight.values());
      await agent.destroy();
    },
  });
  return worker;
}
