import type { NormalizedConfig } from '../config/normalize-config.js';
import type { ExporterStats } from '../config/options.js';
import { ownerLabel, ownerPath } from '../config/owner.js';
import { ErrorCodes, ReslogError } from '../errors.js';
import type { Transport } from '../transport/export-response.js';
import { createHttpTransport } from '../transport/http-transport.js';
import { createRetryingTransport } from '../transport/retrying-transport.js';
import { VERSION } from '../version.js';
import { createBatchSender } from './batch-sender.js';
import { envelopeBytes, splitIntoBatches } from './batch-splitter.js';
import { createCircuitBreaker } from './circuit-breaker.js';
import { createCompressionPolicy } from './compression-policy.js';
import { createExportOutcome, type ExportOutcome } from './export-outcome.js';
import { createExportStats } from './export-stats.js';
import { createKeyResolver } from './key-resolver.js';
import { createLogSerializer } from './log-serializer.js';
import { type ExportableLogRecord, type ExportResult, ExportResultCode } from './otel-types.js';
import { createRecordGrouper, type RecordGroup } from './record-grouper.js';
import { createRefusalWarnings } from './refusal-hints.js';
import { createResourceRouter } from './resource-router.js';
import { LEVEL_RANKS, levelOf } from './severity.js';
import { createTargetScheduler } from './target-scheduler.js';
import { createThrottledDiag } from './throttled-diag.js';

/** Everything `ResourceLogExporter` does, behind four calls. */
export interface ExportDelegate {
  export(records: readonly ExportableLogRecord[]): Promise<ExportResult>;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
  stats(): ExporterStats;
}

/**
 * Wires routing, key lookup, serialization, batching and sending for one exporter, in the
 * order a record travels (docs/architecture.md). `transport` replaces the HTTP transport in
 * tests that need no server.
 */
export function createExportDelegate(
  config: NormalizedConfig,
  transportOverride?: Transport,
): ExportDelegate {
  const secrets = [config.apiKey];
  const diag = createThrottledDiag(secrets);
  const stats = createExportStats(config.onDrop);
  const transport = createRetryingTransport(
    transportOverride ??
      createHttpTransport({
        baseUrl: config.baseUrl,
        timeoutMillis: config.timeoutMillis,
        connections: config.maxConcurrency,
        secrets,
      }),
    { onRetry: () => stats.retried() },
  );
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
    transport,
    onLookupFailed: () => stats.keyLookupFailed(),
  });
  const grouper = createRecordGrouper(createResourceRouter(config));
  const serializer = createLogSerializer();
  const scheduler = createTargetScheduler(config.maxConcurrency);
  const sendBatch = createBatchSender({
    transport,
    compression: createCompressionPolicy(config.compression),
    headers: { ...headers, 'content-type': 'application/json' },
    breaker: createCircuitBreaker(),
    stats,
    secrets,
    pooledBodies: config.maxConcurrency,
    onRefused: createRefusalWarnings(),
  });
  const inFlight = new Set<Promise<unknown>>();
  let isShutdown = false;

  async function exportRecords(records: readonly ExportableLogRecord[]): Promise<ExportResult> {
    const deadline = Date.now() + config.exportTimeoutMillis;
    const outcome = createExportOutcome(stats, diag);
    await settleResources(records);
    const groups = grouper.group(aboveMinLevel(records));
    await Promise.all(groups.map((group) => deliverGroup(group, deadline, outcome)));
    return outcome.result();
  }

  async function deliverGroup(
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

    const key = `${ownerLabel(decision.owner)}/${uuid}`;
    const envelope = Buffer.from(serializer.envelopePrefix(uuid, profile.resourceJson));
    const target = {
      key,
      owner: decision.owner,
      uuid,
      path: `${pathPrefix}/${ownerPath(decision.owner)}/resources/${uuid}/logs/`,
      envelope,
    };
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
        outcome.drop('oversize', 1, { target: key, error });
      },
    );
    await Promise.all(
      batches.map((batch) => scheduler.run(key, () => sendBatch(target, batch, deadline, outcome))),
    );
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
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
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
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async shutdown() {
      if (isShutdown) return;
      isShutdown = true;
      await this.forceFlush();
      await transport.close();
    },
    stats: () => stats.snapshot(),
  };
}
