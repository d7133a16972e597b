import type { NormalizedConfig } from '../config/normalize-config.js';
import { LEVEL_RANKS } from '../contract/levels.js';
import { OversizeError, ShutdownError } from '../errors.js';
import type { Transport } from '../transport/export-response.js';
import { envelopeBytes, splitIntoBatches } from './batch-splitter.js';
import { encodeBody } from './body-encoder.js';
import { createDeliveryPipeline } from './delivery-pipeline.js';
import type { ExportOutcome } from './export-outcome.js';
import { createLogSerializer } from './log-serializer.js';
import { type ExportableLogRecord, type ExportResult, ExportResultCode } from './otel-types.js';
import { createRecordGrouper, type RecordGroup } from './record-grouper.js';
import { createResourceRouter } from './resource-router.js';
import { levelOf } from './severity.js';
import type { ExporterStats } from './stats-types.js';

/** Everything `ResourceLogExporter` does, behind four calls. */
export interface ExportDelegate {
  export(records: readonly ExportableLogRecord[]): Promise<ExportResult>;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
  stats(): ExporterStats;
}

/**
 * The exporter's front end over the shared delivery pipeline (delivery-pipeline.ts), in the
 * order a record travels (docs/architecture.md): routing, key lookup, serialization and
 * batching per export. `export()` returns once its batches are in the backlog; the delivery
 * loop sends them (docs/exporter.md, "Delivery"). `transport` replaces the HTTP transport in
 * tests that need no server.
 */
export function createExportDelegate(
  config: NormalizedConfig,
  transportOverride?: Transport,
): ExportDelegate {
  const pipeline = createDeliveryPipeline(config, transportOverride);
  const { stats } = pipeline;
  const grouper = createRecordGrouper(createResourceRouter(config));
  const serializer = createLogSerializer();
  const exporting = new Set<Promise<unknown>>();
  let isShutdown = false;

  async function exportRecords(records: readonly ExportableLogRecord[]): Promise<ExportResult> {
    const deadline = Date.now() + config.exportTimeoutMillis;
    const outcome = pipeline.newOutcome();
    await pipeline.ready;
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
    const target = await pipeline.targetFor(decision, records.length, deadline, outcome);
    if (target === undefined) return;
    const envelope = Buffer.from(serializer.envelopePrefix(target.uuid, profile.resourceJson));
    const serialized = records.map((record) => serializer.record(record));
    const batches = splitIntoBatches(
      serialized,
      envelopeBytes(envelope),
      config.maxBatchBytes,
      () => {
        const error = new OversizeError(
          `a record is larger than maxBatchBytes (${config.maxBatchBytes})`,
        );
        outcome.drop('oversize', 1, { target: target.key, error });
      },
    );
    for (const batch of batches) {
      const json = encodeBody(envelope, batch, pipeline.bodies.acquire);
      const queuing = pipeline.enqueue(target, json, envelope.length, batch.sizes, outcome);
      if (queuing) await queuing;
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

  async function settleExports(): Promise<void> {
    while (exporting.size > 0) await Promise.allSettled([...exporting]);
  }

  return {
    export(records) {
      if (isShutdown) {
        const outcome = pipeline.newOutcome();
        const error = new ShutdownError('export() called after shutdown()');
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
      await pipeline.ready;
      await settleExports();
      await pipeline.flush();
    },
    async shutdown() {
      if (isShutdown) return;
      isShutdown = true;
      await pipeline.ready;
      await settleExports();
      await pipeline.close();
    },
    stats: () => pipeline.snapshot(),
  };
}
