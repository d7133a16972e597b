import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import type { NormalizedConfig } from '../config/normalize-config.js';
import type { ExporterStats } from '../config/options.js';
import { ownerLabel, ownerPath } from '../config/owner.js';
import { ErrorCodes, ReslogError } from '../errors.js';
import type { Transport } from '../transport/export-response.js';
import { createHttpTransport } from '../transport/http-transport.js';
import { createRetryingTransport } from '../transport/retrying-transport.js';
import { VERSION } from '../version.js';
import { createBacklog } from './backlog.js';
import { createBatchSender } from './batch-sender.js';
import { envelopeBytes, splitIntoBatches } from './batch-splitter.js';
import { createBodyBuffers } from './body-buffers.js';
import { encodeBody } from './body-encoder.js';
import { createCircuitBreaker } from './circuit-breaker.js';
import { createCompressionPolicy } from './compression-policy.js';
import { createDeliveryLoop } from './delivery-loop.js';
import { createExportOutcome, type ExportOutcome } from './export-outcome.js';
import { createExportStats } from './export-stats.js';
import { createKeyResolver } from './key-resolver.js';
import { createLogSerializer } from './log-serializer.js';
import { type ExportableLogRecord, type ExportResult, ExportResultCode } from './otel-types.js';
import type { QueuedBatch, QueuedTarget } from './queued-batch.js';
import { gzip } from './queued-body.js';
import { createRecordGrouper, type RecordGroup } from './record-grouper.js';
import { createRefusalWarnings } from './refusal-hints.js';
import { createResourceRouter } from './resource-router.js';
import { LEVEL_RANKS, levelOf } from './severity.js';
import { createDiskSpool } from './spool/disk-spool.js';
import { createThrottledDiag } from './throttled-diag.js';

/** Everything `ResourceLogExporter` does, behind four calls. */
export interface ExportDelegate {
  export(records: readonly ExportableLogRecord[]): Promise<ExportResult>;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
  stats(): ExporterStats;
}

/**
 * Wires routing, key lookup, serialization, batching, the backlog and its delivery loop for
 * one exporter, in the order a record travels (docs/architecture.md). `export()` returns once
 * its batches are in the backlog; the delivery loop sends them (docs/exporter.md, "Delivery").
 * `transport` replaces the HTTP transport in tests that need no server.
 */
export function createExportDelegate(
  config: NormalizedConfig,
  transportOverride?: Transport,
): ExportDelegate {
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
  const grouper = createRecordGrouper(createResourceRouter(config));
  const serializer = createLogSerializer();
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
        error: new ReslogError(
          reason === 'expired' ? ErrorCodes.EXPIRED : ErrorCodes.BACKLOG_FULL,
          reason === 'expired'
            ? `a batch waited longer than maxBacklogAgeMillis (${config.maxBacklogAgeMillis} ms)`
            : `the backlog is full (maxBacklogBytes ${config.maxBacklogBytes}${spool ? `, maxSpoolBytes ${config.maxSpoolBytes}` : ''}): the oldest batch was dropped`,
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
  const exporting = new Set<Promise<unknown>>();
  let isShutdown = false;

  async function exportRecords(records: readonly ExportableLogRecord[]): Promise<ExportResult> {
    const deadline = Date.now() + config.exportTimeoutMillis;
    const outcome = createExportOutcome(stats, diag);
    await ready;
    await settleResources(records);
    const groups = grouper.group(aboveMinLevel(records));
    await Promise.all(groups.map((group) => enqueueGroup(group, deadline, outcome)));
    return outcome.result();
  }

  /** Serializes, compresses and queues one group's batches, in order. */
  async function enqueueGroup(
    group: RecordGroup,
    deadline: number,
    outcome: ExportOutcome,
  ): Promise<void> {
    const { decision, profile, records } = group;
    if (decision.kind === 'unmapped') {
      const error = new ReslogError(
        ErrorCodes.UNMAPPED,
        `no resource for ${records.length} record(s): ${decision.why}`,
      );
      outcome.drop('unmapped', records.length, { error, failsExport: config.unmapped === 'error' });
      return;
    }
    let uuid: string;
    if (decision.kind === 'key') {
      const resolved = await keys.resolve(decision.owner, decision.key, deadline);
      if (typeof resolved !== 'string') {
        outcome.drop('unresolved_key', records.length, { error: resolved });
        return;
      }
      uuid = resolved;
    } else {
      uuid = decision.uuid;
    }

    const target: QueuedTarget = {
      key: `${ownerLabel(decision.owner)}/${uuid}`,
      owner: decision.owner,
      uuid,
      path: `${pathPrefix}/${ownerPath(decision.owner)}/resources/${uuid}/logs/`,
    };
    const envelope = Buffer.from(serializer.envelopePrefix(uuid, profile.resourceJson));
    const serialized = records.map((record) => serializer.record(record));
    const batches = splitIntoBatches(
      serialized,
      envelopeBytes(envelope),
      config.maxBatchBytes,
      () => {
        const error = new ReslogError(
          ErrorCodes.OVERSIZE,
          `a record is larger than maxBatchBytes (${config.maxBatchBytes})`,
        );
        outcome.drop('oversize', 1, { target: target.key, error });
      },
    );
    for (const batch of batches) {
      const json = encodeBody(envelope, batch, bodies.acquire);
      const gzipped = compression.gzipFor(target.key, Date.now());
      let body = json;
      if (gzipped) {
        try {
          body = await gzip(json);
        } finally {
          bodies.release(json);
        }
      }
      const queued: QueuedBatch = {
        id: randomUUID(),
        target,
        body,
        gzipped,
        envelopeBytes: envelope.length,
        sizes: batch.sizes,
        enqueuedAt: Date.now(),
      };
      if (!backlog.add(queued)) {
        const error = new ReslogError(
          ErrorCodes.BACKLOG_FULL,
          `a batch of ${body.length} bytes is larger than maxBacklogBytes (${config.maxBacklogBytes})`,
        );
        outcome.drop('backlog_full', batch.sizes.length, { target: target.key, error });
        continue;
      }
      loop.kick(target.key);
    }
  }

  /** The records at or above `minLevel`; the others are counted as filtered. */
  function aboveMinLevel(records: readonly ExportableLogRecord[]): readonly ExportableLogRecord[] {
    if (config.minLevelRank === 0) return records;
    const kept = records.filter(
      (record) =>
        LEVEL_RANKS[levelOf(record.severityNumber, record.severityText)] >= config.minLevelRank,
    );
    stats.filtered(records.length - kept.length);
    return kept;
  }

  async function settleResources(records: readonly ExportableLogRecord[]): Promise<void> {
    const pending = new Set<Promise<void>>();
    let last: unknown;
    for (const record of records) {
      const resource = record.resource;
      if (resource === last) continue;
      last = resource;
      if (resource.asyncAttributesPending && resource.waitForAsyncAttributes) {
        pending.add(resource.waitForAsyncAttributes());
      }
    }
    if (pending.size > 0) await Promise.all(pending);
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    exporting.add(promise);
    void promise.finally(() => exporting.delete(promise)).catch(() => undefined);
    return promise;
  }

  /** Resolves when `promise` does or `millis` pass; says which. */
  async function within(promise: Promise<void>, millis: number): Promise<boolean> {
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

  async function settleExports(): Promise<void> {
    while (exporting.size > 0) await Promise.allSettled([...exporting]);
  }

  return {
    export(records) {
      if (isShutdown) {
        const outcome = createExportOutcome(stats, diag);
        const error = new ReslogError(ErrorCodes.SHUTDOWN, 'export() called after shutdown()');
        outcome.drop('shutdown', records.length, { error });
        return Promise.resolve(outcome.result());
      }
      return track(
        exportRecords(records).catch((error: unknown) => ({
          code: ExportResultCode.FAILED,
          error: error instanceof Error ? error : new Error(String(error)),
        })),
      );
    },
    async forceFlush() {
      // What an earlier process left in the spool is part of what there is to flush.
      await ready;
      await settleExports();
      const emptied = await within(loop.idle(), config.flushTimeoutMillis);
      if (!emptied) {
        diag.warn(
          'flush',
          `forceFlush() gave up after ${config.flushTimeoutMillis} ms with ${backlog.size()} batch(es) still queued`,
        );
      }
    },
    async shutdown() {
      if (isShutdown) return;
      isShutdown = true;
      await ready;
      await settleExports();
      await within(loop.idle(), config.shutdownTimeoutMillis);
      // An attempt in flight at the deadline may finish (it has its own timeoutMillis).
      await loop.stop();
      if (spool) {
        // What is left stays on disk for the next exporter over the same directory.
        backlog.releaseAll();
        await spool.close();
      } else {
        backlog.dropAll('shutdown', (batch) => {
          const error = new ReslogError(
            ErrorCodes.SHUTDOWN,
            `shutdown() ended after ${config.shutdownTimeoutMillis} ms with the batch still queued`,
          );
          drops.drop('shutdown', batch.sizes.length, { target: batch.target.key, error });
        });
      }
      await http.close();
    },
    stats() {
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
