import type { ReslogError } from '../errors.js';
import type { DropEvent, DropReason, ExporterStats, TargetStats } from './stats-types.js';

export interface ExportStats {
  exported(target: string, count: number, statusCode: number): void;
  dropped(
    reason: DropReason,
    count: number,
    target?: string,
    error?: ReslogError,
    statusCode?: number,
  ): void;
  retried(): void;
  /** The status of an answer that was neither an acknowledgement nor a drop (a retry). */
  lastStatus(target: string, statusCode: number): void;
  keyLookupFailed(): void;
  /** Records not sent because they are below `minLevel`. */
  filtered(count: number): void;
  /** Whether `target`'s next body is gzipped. */
  encoding(target: string, gzip: boolean): void;
  /** A batch went again uncompressed after its target refused gzip. */
  encodingFallback(): void;
  snapshot(): ExporterStats;
}

/** Counters behind `getStats()`; also the one place `onDrop` is called from. */
export function createExportStats(onDrop: ((event: DropEvent) => void) | undefined): ExportStats {
  let exported = 0;
  let retried = 0;
  let keyLookupFailures = 0;
  let filtered = 0;
  let encodingFallbacks = 0;
  const dropped: Record<DropReason, number> = {
    unmapped: 0,
    unresolved_key: 0,
    rejected: 0,
    oversize: 0,
    retry_budget: 0,
    shutdown: 0,
    backlog_full: 0,
    expired: 0,
    spool_corrupt: 0,
    circuit_open: 0,
  };
  const targets = new Map<string, TargetStats>();

  const targetStats = (target: string): TargetStats => {
    let stats = targets.get(target);
    if (!stats) {
      stats = {
        exported: 0,
        dropped: 0,
        lastStatus: 0,
        gzip: false,
        backlogBytes: 0,
        backlogBatches: 0,
        oldestAgeMillis: 0,
        spoolBytes: 0,
      };
      targets.set(target, stats);
    }
    return stats;
  };

  return {
    exported(target, count, statusCode) {
      exported += count;
      const stats = targetStats(target);
      stats.exported += count;
      stats.lastStatus = statusCode;
    },
    dropped(reason, count, target, error, statusCode) {
      if (count <= 0) return;
      dropped[reason] += count;
      if (target !== undefined) {
        const stats = targetStats(target);
        stats.dropped += count;
        if (statusCode !== undefined) stats.lastStatus = statusCode;
      }
      if (!onDrop) return;
      const event: DropEvent = { reason, count };
      if (target !== undefined) event.target = target;
      if (error !== undefined) event.error = error;
      try {
        onDrop(event);
      } catch {
        // A user callback must not break the export.
      }
    },
    retried() {
      retried++;
    },
    lastStatus(target, statusCode) {
      targetStats(target).lastStatus = statusCode;
    },
    keyLookupFailed() {
      keyLookupFailures++;
    },
    filtered(count) {
      filtered += count;
    },
    encoding(target, gzip) {
      targetStats(target).gzip = gzip;
    },
    encodingFallback() {
      encodingFallbacks++;
    },
    snapshot() {
      return {
        exported,
        retried,
        filtered,
        encodingFallbacks,
        dropped: { ...dropped },
        keyLookupFailures,
        backlog: { bytes: 0, batches: 0 },
        spool: undefined,
        targets: Object.fromEntries([...targets].map(([key, value]) => [key, { ...value }])),
      };
    },
  };
}
