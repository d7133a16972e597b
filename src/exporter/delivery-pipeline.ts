import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import type { NormalizedConfig } from '../config/normalize-config.js';
import { ownerLabel, ownerPath } from '../config/owner.js';
import { BacklogFullError, ExpiredError, ShutdownError, UnmappedError } from '../errors.js';
import type { Transport } from '../transport/export-response.js';
import { createHttpTransport } from '../transport/http-transport.js';
import { createRetryingTransport } from '../transport/retrying-transport.js';
import { VERSION } from '../version.js';
import { createBacklog } from './backlog.js';
import { createBatchSender } from './batch-sender.js';
import { type BodyBuffers, createBodyBuffers } from './body-buffers.js';
import { createCircuitBreaker } from './circuit-breaker.js';
import { createCompressionPolicy } from './compression-policy.js';
import { createDeliveryLoop } from './delivery-loop.js';
import { createExportOutcome, type ExportOutcome } from './export-outcome.js';
import { createExportStats, type ExportStats } from './export-stats.js';
import { createKeyResolver } from './key-resolver.js';
import type { QueuedBatch, QueuedTarget } from './queued-batch.js';
import { gzip } from './queued-body.js';
import { createRefusalWarnings } from './refusal-hints.js';
import type { RouteDecision } from './resource-router.js';
import { createDiskSpool } from './spool/disk-spool.js';
import type { ExporterStats } from './stats-types.js';
import { createThrottledDiag, type ThrottledDiag } from './throttled-diag.js';

/**
 * The back half every front end shares (docs/exporter.md, "Delivery"): key lookups, the
 * backlog with its spool, the delivery loop, and the counters. A front end (the exporter's
 * `export()`, or the processor's open batches) turns records into plain JSON bodies and hands
 * each to {@link enqueue}.
 */
export interface DeliveryPipeline {
  readonly stats: ExportStats;
  readonly diag: ThrottledDiag;
  /** Pooled memory for bodies: a body given to {@link enqueue} may come from here. */
  readonly bodies: BodyBuffers;
  /** Resolves once what an earlier process left in the spool is back in the backlog. */
  readonly ready: Promise<void>;
  /** A drop collector whose result nobody reads (records dropped after `export()` returned). */
  newOutcome(): ExportOutcome;
  /**
   * Where records with this decision go: looks keys up, counts unmapped and unresolvable
   * records as dropped (`count` of them) and answers `undefined` for those.
   */
  targetFor(
    decision: RouteDecision,
    count: number,
    deadline: number,
    outcome: ExportOutcome,
  ): Promise<QueuedTarget | undefined>;
  /**
   * Queues one plain JSON body (envelope of `envelopeBytes`, then records of `sizes`): gzips
   * it when the target takes gzip, adds it to the backlog and wakes the delivery loop. Returns
   * a promise only while gzip runs; a plain body is queued when this returns.
   */
  enqueue(
    target: QueuedTarget,
    json: Buffer,
    envelopeBytes: number,
    sizes: readonly number[],
    outcome: ExportOutcome,
  ): Promise<void> | undefined;
  /** Resolves when the backlog is empty or `flushTimeoutMillis` passed (told through diag). */
  flush(): Promise<void>;
  /** Sends for up to `shutdownTimeoutMillis`, then drops what is left (or leaves it spooled). */
  close(): Promise<void>;
  snapshot(): ExporterStats;
}

/** `transport` replaces the HTTP transport in tests that need no server. */
export function createDeliveryPipeline(
  config: NormalizedConfig,
  transportOverride?: Transport,
): DeliveryPipeline {
  const secrets = [config.apiKey];
  const diag = createThrottledDiag(secrets);
  const stats = createExportStats(config.onDrop);
  const http =
    transportOverride ??
    createHttpTransport({
      baseUrl: config.baseUrl,
      timeoutMillis: config.timeoutMillis,
      connections: config.maxConcurrency,
      secrets,
    });
  // Key lookups retry within the export's budget; batches are retried by the delivery loop.
  const lookups = createRetryingTransport(http, { onRetry: () => stats.retried() });
  const pathPrefix = new URL(config.baseUrl).pathname.replace(/\/+$/, '');
  const headers: Record<string, string> = {
    'user-agent': `reslog/${VERSION}`,
    ...config.headers,
    'x-api-key': config.apiKey,
  };
  if (config.user !== undefined) headers['x-user-username'] = config.user;
  const keys = createKeyResolver({
    staticKeys: config.resourceKeys,
    pathPrefix,
    headers: { ...headers, accept: 'application/json' },
    transport: lookups,
    onLookupFailed: () => stats.keyLookupFailed(),
  });
  const compression = createCompressionPolicy(config.compression);
  const bodies = createBodyBuffers(config.maxConcurrency);
  const drops = createExportOutcome(stats, diag);
  const spool =
    config.spoolDir === undefined
      ? undefined
      : createDiskSpool({
          dir: config.spoolDir,
          maxBytes: config.maxSpoolBytes,
          onDiagnostic: (message) => diag.warn('spool', message.replace(/^reslog /, '')),
        });
  const backlog = createBacklog({
    maxBytes: config.maxBacklogBytes,
    maxAgeMillis: config.maxBacklogAgeMillis,
    spool,
    onDrop: (batch, reason) =>
      drops.drop(reason, batch.sizes.length, {
        target: batch.target.key,
        error:
          reason === 'expired'
            ? new ExpiredError(
                `a batch waited longer than maxBacklogAgeMillis (${config.maxBacklogAgeMillis} ms)`,
              )
            : new BacklogFullError(
                `the backlog is full (maxBacklogBytes ${config.maxBacklogBytes}${spool ? `, maxSpoolBytes ${config.maxSpoolBytes}` : ''}): the oldest batch was dropped`,
              ),
      }),
  });
  const warnRefused = createRefusalWarnings();
  const loop = createDeliveryLoop({
    backlog,
    send: createBatchSender({
      transport: http,
      compression,
      headers: { ...headers, 'content-type': 'application/json' },
      stats,
      secrets,
      bodies,
      onResized: (batch, previous) => backlog.resized(batch, previous),
    }),
    limit: pLimit(config.maxConcurrency),
    breaker: createCircuitBreaker(),
    stats,
    drops,
    spool,
    onRefused: (batch, statusCode, serverCode) => warnRefused(batch.target, statusCode, serverCode),
    onError: (error) => diag.error('delivery', `delivery stopped on an error: ${String(error)}`),
  });
  // Batches an earlier process left in the spool go first, under their own Idempotency-Keys.
  const ready = spool
    ? spool
        .recover()
        .then((recovered) => {
          for (const batch of recovered) backlog.restore(batch);
          for (const target of backlog.targets()) loop.kick(target);
        })
        .catch((error: unknown) => diag.error('spool', `spool recovery failed: ${String(error)}`))
    : Promise.resolve();

  return {
    stats,
    diag,
    bodies,
    ready,
    newOutcome: () => createExportOutcome(stats, diag),

    async targetFor(decision, count, deadline, outcome) {
      if (decision.kind === 'unmapped') {
        const error = new UnmappedError(`no resource for ${count} record(s): ${decision.why}`);
        outcome.drop('unmapped', count, { error, failsExport: config.unmapped === 'error' });
        return undefined;
      }
      let uuid: string;
      if (decision.kind === 'key') {
        const resolved = await keys.resolve(decision.owner, decision.key, deadline);
        if (typeof resolved !== 'string') {
          outcome.drop('unresolved_key', count, { error: resolved });
          return undefined;
        }
        uuid = resolved;
      } else {
        uuid = decision.uuid;
      }
      return {
        key: `${ownerLabel(decision.owner)}/${uuid}`,
        owner: decision.owner,
        uuid,
        path: `${pathPrefix}/${ownerPath(decision.owner)}/resources/${uuid}/logs/`,
      };
    },

    enqueue(target, json, envelopeBytes, sizes, outcome) {
      const add = (body: Buffer, gzipped: boolean): undefined => {
        const queued: QueuedBatch = {
          id: randomUUID(),
          target,
          body,
          gzipped,
          envelopeBytes,
          sizes,
          enqueuedAt: Date.now(),
        };
        if (!backlog.add(queued)) {
          const error = new BacklogFullError(
            `a batch of ${body.length} bytes is larger than maxBacklogBytes (${config.maxBacklogBytes})`,
          );
          outcome.drop('backlog_full', sizes.length, { target: target.key, error });
          return undefined;
        }
        loop.kick(target.key);
        return undefined;
      };
      // A plain body is queued before this returns, so batches of concurrent calls keep their
      // order; only gzip (on the threadpool) makes the caller wait.
      if (!compression.gzipFor(target.key, Date.now())) return add(json, false);
      return gzip(json)
        .finally(() => bodies.release(json))
        .then((zipped) => {
          add(zipped, true);
        });
    },

    async flush() {
      // What an earlier process left in the spool is part of what there is to flush.
      await ready;
      const emptied = await within(loop.idle(), config.flushTimeoutMillis);
      if (!emptied) {
        diag.warn(
          'flush',
          `forceFlush() gave up after ${config.flushTimeoutMillis} ms with ${backlog.size()} batch(es) still queued`,
        );
      }
    },

    async close() {
      await ready;
      await within(loop.idle(), config.shutdownTimeoutMillis);
      // An attempt in flight at the deadline may finish (it has its own timeoutMillis).
      await loop.stop();
      if (spool) {
        // What is left stays on disk for the next exporter over the same directory.
        backlog.releaseAll();
        await spool.close();
      } else {
        backlog.dropAll('shutdown', (batch) => {
          const error = new ShutdownError(
            `shutdown() ended after ${config.shutdownTimeoutMillis} ms with the batch still queued`,
          );
          drops.drop('shutdown', batch.sizes.length, { target: batch.target.key, error });
        });
      }
      await http.close();
    },

    snapshot() {
      const snapshot = stats.snapshot();
      const spoolStats = spool?.stats();
      for (const key of new Set([...Object.keys(snapshot.targets), ...backlog.targets()])) {
        const queued = backlog.stats(key);
        const target = snapshot.targets[key] ?? {
          exported: 0,
          dropped: 0,
          lastStatus: 0,
          gzip: compression.gzipFor(key, Date.now()),
          backlogBytes: 0,
          backlogBatches: 0,
          oldestAgeMillis: 0,
          spoolBytes: 0,
        };
        target.backlogBytes = queued.bytes;
        target.backlogBatches = queued.batches;
        target.oldestAgeMillis = queued.oldestAgeMillis;
        target.spoolBytes = spoolStats?.bytesByTarget.get(key) ?? 0;
        snapshot.targets[key] = target;
      }
      snapshot.backlog = { bytes: backlog.bytes(), batches: backlog.size() };
      snapshot.spool = spoolStats && {
        bytes: spoolStats.bytes,
        corruptFrames: spoolStats.corruptFrames,
        writeErrors: spoolStats.writeErrors,
        adoptedSegments: spoolStats.adoptedSegments,
      };
      return snapshot;
    },
  };
}

/** Resolves when `promise` does or `millis` pass; says which. */
export async function within(promise: Promise<void>, millis: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), millis);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
