import { Agent, request } from 'undici';
import type { Store } from '../store/create-store.js';
import type { HealthState } from '../store/directory-store.js';
import type { HealthCheck, ProbeResult } from '../store/health-store.js';
import type { Monitor } from './monitor.js';

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

/** Probes the health checks attached to resources when they are due. */
export interface HealthChecker {
  start(): void;
  /** Looks for due checks now (one was just attached). */
  kick(): void;
  /** Stops scheduling and aborts probes in flight (their results are discarded). */
  stop(): Promise<void>;
}

/** The state a probe leads to: `healthy`, else `degraded` until the threshold, then `down`. */
export function stateAfterProbe(ok: boolean, failures: number, failuresUntilDown: number) {
  const state: HealthState = ok ? 'healthy' : failures >= failuresUntilDown ? 'down' : 'degraded';
  return state;
}

export function createHealthChecker(options: HealthCheckerOptions): HealthChecker {
  const { store, clock } = options;
  const agent = new Agent({ connections: 4, keepAliveTimeout: 1000 });
  const abort = new AbortController();
  const inFlight = new Map<number, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;

  const probe = async (check: HealthCheck): Promise<ProbeResult> => {
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
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(check.timeout_millis)]),
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

  const run = async (check: HealthCheck) => {
    const result = await probe(check);
    if (stopped || !store.db.isOpen) return;
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

  const tick = () => {
    if (stopped || !store.db.isOpen) return;
    clearTimeout(timer);
    for (const check of store.health.due(clock())) {
      if (inFlight.has(check.resourceId)) continue;
      const running = run(check)
        .catch((error: unknown) => options.log.warn({ err: error }, 'health check failed'))
        .finally(() => {
          inFlight.delete(check.resourceId);
          if (!stopped) tick();
        });
      inFlight.set(check.resourceId, running);
    }
    // Checks still due are in flight; each calls tick() when it ends.
    const next = store.health.nextDueMs();
    const now = clock();
    const wait =
      next === undefined || next <= now
        ? options.pollMillis
        : Math.min(next - now, options.pollMillis);
    timer = setTimeout(tick, wait);
    timer.unref();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      tick();
    },
    kick() {
      if (!stopped) tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      await Promise.allSettled(inFlight.values());
      await agent.destroy();
    },
  };
}
