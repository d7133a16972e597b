import type { NormalizedConfig } from '../config/normalize-config.js';
import { LEVEL_RANKS } from '../contract/levels.js';
import { ExportFailedError, OversizeError, ShutdownError } from '../errors.js';
import type { Transport } from '../transport/export-response.js';
import { createDeliveryPipeline } from './delivery-pipeline.js';
import { createLogSerializer } from './log-serializer.js';
import { createOpenBatch, type OpenBatch } from './open-batch.js';
import type { ExportableLogRecord, LogResource } from './otel-types.js';
import { createResourceProfiles, decisionKey, type ResourceProfile } from './record-grouper.js';
import { createResourceRouter, hasRoutingOverride, type RouteDecision } from './resource-router.js';
import { highestRankOf, levelOf } from './severity.js';
import type { ExporterStats } from './stats-types.js';

/** Everything `ResourceLogProcessor` does, behind five calls. */
export interface ProcessorDelegate {
  /** Takes one emitted record; never throws. */
  emit(record: ExportableLogRecord): void;
  /** False when no record of this severity number can reach `minLevel`. */
  enabled(severityNumber: number | undefined): boolean;
  /**
   * Closes every open batch and resolves once they are in the backlog (or dropped), without
   * waiting for delivery: what `export()` returning is to the exporter.
   */
  queueOpen(): Promise<void>;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
  stats(): ExporterStats;
}

/** One target's open batch, with what closing it needs. */
interface Slot {
  readonly decision: RouteDecision;
  readonly profile: ResourceProfile;
  readonly batch: OpenBatch;
  /** The batches of this slot enter the backlog in order: each close waits for the last. */
  queued: Promise<void>;
  /** Closed batches of this slot not yet in the backlog. */
  queuing: number;
}

/**
 * The processor's front end over the shared delivery pipeline (delivery-pipeline.ts): each
 * record is routed and serialized as it is emitted, into its target's open batch
 * (open-batch.ts), so no record object outlives its `emit` (docs/exporter.md, "The
 * processor"). A batch closes when full or after `scheduledDelayMillis`, then goes the way of
 * an exported batch: key lookup, gzip, backlog, delivery loop.
 */
export function createProcessorDelegate(
  config: NormalizedConfig,
  transportOverride?: Transport,
): ProcessorDelegate {
  const pipeline = createDeliveryPipeline(config, transportOverride);
  const { stats, diag } = pipeline;
  const router = createResourceRouter(config);
  const profiles = createResourceProfiles(router);
  // The SDK gives every record of a provider one resource object, whose settled attributes are
  // one memoized object: while that object is the same, so is the profile.
  let lastResource: LogResource | undefined;
  let lastAttributes: unknown;
  let lastProfile: ResourceProfile | undefined;
  const profileOf = (resource: LogResource): ResourceProfile => {
    if (resource === lastResource && resource.attributes === lastAttributes && lastProfile) {
      return lastProfile;
    }
    lastProfile = profiles.profileOf(resource);
    lastResource = resource;
    lastAttributes = resource.attributes;
    return lastProfile;
  };
  const serializer = createLogSerializer();
  // Budget for records: the body limit less the envelope. Envelopes of key routes are written
  // once the key is looked up, with a UUID of the same length (36) as the placeholder.
  const envelopeBytesOf = (profile: ResourceProfile) =>
    Buffer.byteLength(serializer.envelopePrefix(PLACEHOLDER_UUID, profile.resourceJson)) + 2;
  const slots = new Map<string, Slot>();
  /** Records of resources whose async attributes are still being detected. */
  const waiting: ExportableLogRecord[] = [];
  let settling: Promise<void> | undefined;
  /** Closes in progress, so that flush and shutdown can wait for them. */
  const closing = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let isShutdown = false;

  const slotFor = (record: ExportableLogRecord): Slot => {
    const profile = profileOf(record.resource);
    let decision = profile.decision;
    let key = profile.groupKey;
    if (hasRoutingOverride(record.attributes)) {
      decision = router.route(record.resource.attributes, record.attributes);
      key = `${decisionKey(decision)}\n${profile.fingerprint}`;
    }
    let slot = slots.get(key);
    if (!slot) {
      const budget = config.maxBatchBytes - envelopeBytesOf(profile);
      slot = {
        decision,
        profile,
        batch: createOpenBatch(budget),
        queued: Promise.resolve(),
        queuing: 0,
      };
      slots.set(key, slot);
    }
    return slot;
  };

  function add(record: ExportableLogRecord): void {
    if (
      config.minLevelRank !== 0 &&
      LEVEL_RANKS[levelOf(record.severityNumber, record.severityText)] < config.minLevelRank
    ) {
      stats.filtered(1);
      return;
    }
    const slot = slotFor(record);
    const json = serializer.record(record);
    let added = slot.batch.append(json);
    if (added === 'full') {
      close(slot);
      added = slot.batch.append(json);
    }
    if (added === 'oversize') {
      dropOversize(slot.decision);
      return;
    }
    if (slot.batch.count >= config.maxExportBatchSize) close(slot);
    else if (timer === undefined) arm();
  }

  /**
   * Counts a record too large for any batch against its target, as the exporter does: known
   * only after a key lookup, and a record with no target is dropped for that reason instead.
   */
  function dropOversize(decision: RouteDecision): void {
    const outcome = pipeline.newOutcome();
    const deadline = Date.now() + config.exportTimeoutMillis;
    const done = pipeline
      .targetFor(decision, 1, deadline, outcome)
      .then((target) => {
        if (target === undefined) return;
        const error = new OversizeError(
          `a record is larger than maxBatchBytes (${config.maxBatchBytes})`,
        );
        outcome.drop('oversize', 1, { target: target.key, error });
      })
      .catch((error: unknown) =>
        diag.error('delivery', `a drop was not counted: ${String(error)}`),
      );
    closing.add(done);
    void done.finally(() => closing.delete(done));
  }

  function arm(): void {
    timer = setTimeout(() => {
      timer = undefined;
      closeAll();
    }, config.scheduledDelayMillis);
    // A pending batch must not keep the process alive; shutdown() sends it.
    timer.unref();
  }

  /** Queues the slot's open batch behind its earlier ones; the batch is empty again at once. */
  function close(slot: Slot): void {
    const count = slot.batch.count;
    if (count === 0) return;
    const deadline = Date.now() + config.exportTimeoutMillis;
    const outcome = pipeline.newOutcome();
    const envelopeFor = (uuid: string) =>
      Buffer.from(serializer.envelopePrefix(uuid, slot.profile.resourceJson));
    // A key route's envelope needs the looked-up UUID: its records are taken without one now
    // and copied behind it after the lookup (cached after the first).
    const known = slot.decision.kind === 'uuid' ? envelopeFor(slot.decision.uuid) : undefined;
    const closed = slot.batch.close(known ?? EMPTY, pipeline.bodies.acquire);
    if (closed === undefined) return;
    const queue = async () => {
      await pipeline.ready;
      const target = await pipeline.targetFor(slot.decision, count, deadline, outcome);
      if (target === undefined) {
        pipeline.bodies.release(closed.body);
        return;
      }
      let body = closed.body;
      let envelopeLength = known?.length ?? 0;
      if (known === undefined) {
        const envelope = envelopeFor(target.uuid);
        body = pipeline.bodies.acquire(envelope.length + closed.body.length);
        envelope.copy(body, 0);
        closed.body.copy(body, envelope.length);
        pipeline.bodies.release(closed.body);
        envelopeLength = envelope.length;
      }
      await pipeline.enqueue(target, body, envelopeLength, closed.sizes, outcome);
    };
    const done = slot.queued.then(queue).catch((error: unknown) => {
      diag.error('delivery', `a batch could not be queued: ${String(error)}`);
    });
    slot.queued = done;
    slot.queuing++;
    void done.finally(() => slot.queuing--);
    closing.add(done);
    void done.finally(() => closing.delete(done));
  }

  function closeAll(): void {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    for (const [key, slot] of slots) {
      // An idle target gives its buffer back: the next record opens a new one.
      // Not while a closed batch still waits (a key lookup, gzip): its successor must queue
      // behind it, and only this slot's chain keeps that order.
      if (slot.batch.count === 0 && slot.queuing === 0) slots.delete(key);
      else close(slot);
    }
  }

  function settleThenAdd(record: ExportableLogRecord): void {
    waiting.push(record);
    settling ??= (async () => {
      try {
        while (waiting.length > 0) {
          const pending = new Set<Promise<void>>();
          for (const r of waiting) {
            if (r.resource.asyncAttributesPending && r.resource.waitForAsyncAttributes) {
              pending.add(r.resource.waitForAsyncAttributes());
            }
          }
          await Promise.all(pending);
          for (const r of waiting.splice(0)) safeAdd(r);
        }
      } finally {
        settling = undefined;
      }
    })();
  }

  function safeAdd(record: ExportableLogRecord): void {
    try {
      add(record);
    } catch (error) {
      // Never into the app's logging call: the record is counted and the cause reported.
      const outcome = pipeline.newOutcome();
      outcome.drop('rejected', 1, {
        error: new ExportFailedError({ rejected: 1 }, [], {
          detail: `a record could not be serialized: ${String(error)}`,
          cause: error,
        }),
      });
    }
  }

  async function queueOpen(): Promise<void> {
    while (settling) await settling;
    closeAll();
    while (closing.size > 0) await Promise.allSettled([...closing]);
  }

  return {
    emit(record) {
      if (isShutdown) {
        const error = new ShutdownError('a record was emitted after shutdown()');
        pipeline.newOutcome().drop('shutdown', 1, { error });
        return;
      }
      if (record.resource.asyncAttributesPending || settling) settleThenAdd(record);
      else safeAdd(record);
    },
    enabled(severityNumber) {
      return config.minLevelRank === 0 || highestRankOf(severityNumber) >= config.minLevelRank;
    },
    queueOpen,
    async forceFlush() {
      await queueOpen();
      await pipeline.flush();
    },
    async shutdown() {
      if (isShutdown) return;
      isShutdown = true;
      await queueOpen();
      await pipeline.close();
    },
    stats: () => pipeline.snapshot(),
  };
}

const PLACEHOLDER_UUID = '00000000-0000-0000-0000-000000000000';
const EMPTY = Buffer.alloc(0);
