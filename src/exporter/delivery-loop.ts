import { setTimeout as sleep } from 'node:timers/promises';
import { CircuitOpenError, type ReslogError, SpoolCorruptError } from '../errors.js';
import { backoffMillis } from '../transport/retry-rules.js';
import type { Backlog } from './backlog.js';
import type { BatchSender } from './batch-sender.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import type { ExportOutcome } from './export-outcome.js';
import type { ExportStats } from './export-stats.js';
import type { QueuedBatch } from './queued-batch.js';
import { splitInHalves } from './queued-body.js';
import type { Spool } from './spool/spool.js';

export interface DeliveryLoopOptions {
  readonly backlog: Backlog;
  readonly send: BatchSender;
  /** Runs one attempt within the exporter's overall concurrency limit. */
  readonly limit: <T>(task: () => Promise<T>) => Promise<T>;
  readonly breaker: CircuitBreaker;
  readonly stats: ExportStats;
  /** Where drops are reported (stats, `onDrop`, diag). */
  readonly drops: ExportOutcome;
  readonly spool?: Spool | undefined;
  /** Told of each 401, 403 and 404 answer (the exporter warns once per target). */
  readonly onRefused: (batch: QueuedBatch, statusCode: number, serverCode?: string) => void;
  /** Told of an unexpected error that ended a drain (its batches stay queued). */
  readonly onError: (error: unknown) => void;
  /** Source of jitter in [0, 1). @default Math.random */
  readonly random?: () => number;
}

export interface DeliveryLoop {
  /** Starts draining `target`'s backlog unless it is being drained already. */
  kick(target: string): void;
  /** Resolves once every backlog is empty and nothing is being sent. */
  idle(): Promise<void>;
  /** Ends every drain after its current attempt; waits between retries are cut short. */
  stop(): Promise<void>;
}

/**
 * Drains each target's backlog in order, one request in flight per target, retrying with
 * `Retry-After` or backoff with jitter for as long as the batch may wait (its age bound), with
 * no per-export deadline: a target that is down holds back only its own batches
 * (docs/exporter.md, "Delivery").
 */
export function createDeliveryLoop(options: DeliveryLoopOptions): DeliveryLoop {
  const { backlog, breaker, stats, drops } = options;
  const random = options.random ?? Math.random;
  const running = new Map<string, Promise<void>>();
  const abort = new AbortController();
  let idleWaiters: (() => void)[] = [];

  const checkIdle = () => {
    if (running.size > 0 || backlog.size() > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const dropBatch = (
    batch: QueuedBatch,
    reason: 'rejected' | 'circuit_open' | 'oversize' | 'spool_corrupt',
    error: ReslogError,
    statusCode?: number,
  ) => {
    backlog.settle(batch);
    drops.drop(reason, batch.sizes.length, {
      target: batch.target.key,
      error,
      ...(statusCode === undefined ? {} : { statusCode }),
    });
  };

  async function drain(target: string): Promise<void> {
    let retries = 0;
    while (!abort.signal.aborted) {
      const batch = backlog.head(target);
      if (!batch) return;
      const paused = breaker.pausedFor(target, Date.now());
      if (paused > 0) {
        dropBatch(batch, 'circuit_open', new CircuitOpenError(target, paused));
        continue;
      }
      if (!batch.body) {
        const body = options.spool?.read(batch.id);
        if (!body) {
          const error = new SpoolCorruptError(
            `batch ${batch.id} could not be read back from the spool`,
          );
          dropBatch(batch, 'spool_corrupt', error);
          continue;
        }
        batch.body = body;
        backlog.resized(batch, undefined);
      }
      backlog.hold(batch);
      const result = await options.limit(() => options.send(batch));
      switch (result.kind) {
        case 'delivered':
          retries = 0;
          breaker.success(target);
          backlog.settle(batch);
          stats.exported(target, result.accepted, result.statusCode);
          if (result.rejected > 0) {
            drops.drop('rejected', result.rejected, {
              target,
              statusCode: result.statusCode,
              ...(result.rejectError ? { error: result.rejectError } : {}),
            });
          }
          break;
        case 'retry': {
          backlog.unhold(batch);
          stats.retried();
          stats.lastStatus(target, result.statusCode);
          const delay = result.retryAfterMillis ?? backoffMillis(retries, random());
          retries++;
          // A wait that would end past the batch's age bound is not started.
          if (Date.now() + delay >= backlog.expiresAt(batch)) {
            backlog.expireNow(batch);
            retries = 0;
            break;
          }
          await sleep(delay, undefined, { signal: abort.signal }).catch(() => undefined);
          break;
        }
        case 'too_large': {
          const halves = await splitInHalves(batch);
          if (halves) backlog.replace(batch, halves);
          else dropBatch(batch, 'oversize', result.error, 413);
          break;
        }
        case 'refused': {
          breaker.permanentFailure(target, Date.now());
          const serverCode = (result.error as { serverCode?: string }).serverCode;
          options.onRefused(batch, result.statusCode, serverCode);
          dropBatch(batch, 'rejected', result.error, result.statusCode);
          break;
        }
      }
    }
  }

  function kick(target: string): void {
    if (running.has(target) || abort.signal.aborted) return;
    const run = drain(target)
      .catch((error: unknown) => {
        // A bug here must not become an unhandled rejection in the app; the batches stay.
        options.onError(error);
      })
      .finally(() => {
        running.delete(target);
        // A batch may have arrived while the last attempt was settling.
        if (!abort.signal.aborted && backlog.head(target)) kick(target);
        checkIdle();
      });
    running.set(target, run);
  }

  return {
    kick,
    idle() {
      if (running.size === 0 && backlog.size() === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    async stop() {
      abort.abort();
      await Promise.allSettled([...running.values()]);
    },
  };
}
