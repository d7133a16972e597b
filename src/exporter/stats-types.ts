import type { ReslogError } from '../errors.js';

/**
 * What the exporter and the processor report about delivery: `getStats()`, `onDrop` and the
 * drop reasons (docs/exporter.md, "Seeing what happened"; docs/errors.md).
 */

/** Why records were dropped; the keys of `getStats().dropped`. */
export type DropReason =
  | 'unmapped'
  | 'unresolved_key'
  | 'rejected'
  | 'oversize'
  | 'retry_budget'
  | 'shutdown'
  | 'backlog_full'
  | 'expired'
  | 'spool_corrupt'
  | 'circuit_open';

/** Told to `onDrop` each time records are dropped. */
export interface DropEvent {
  reason: DropReason;
  /** How many records were dropped. */
  count: number;
  /** `<username>/<uuid>` when the target was known. */
  target?: string;
  /** Why, when there was an error (the API key is never part of it). */
  error?: ReslogError;
}

/** Per-target counters in {@link ExporterStats}. */
export interface TargetStats {
  exported: number;
  dropped: number;
  /** HTTP status of the last answer, or 0 when the last attempt got none. */
  lastStatus: number;
  /** Whether the target's bodies are gzipped now (`compression: 'auto'` may have fallen back). */
  gzip: boolean;
  /** Bytes of queued bodies held in memory for the target. */
  backlogBytes: number;
  /** Batches queued for the target (in memory or only in the spool). */
  backlogBatches: number;
  /** Age of the target's oldest queued batch, in milliseconds; 0 when none. */
  oldestAgeMillis: number;
  /** Bytes of the target's batches in the spool. */
  spoolBytes: number;
}

/** The disk spool's figures in {@link ExporterStats}. */
export interface SpoolStats {
  /** Bytes of queued batches on disk. */
  bytes: number;
  /** Frames skipped because their checksum or length was wrong (a torn or corrupt file). */
  corruptFrames: number;
  /** Writes that failed (a full disk, an unwritable directory): those batches are in memory only. */
  writeErrors: number;
  /** Segment files of dead processes this exporter took over. */
  adoptedSegments: number;
}

/** What `getStats()` returns: counters since the exporter was created. */
export interface ExporterStats {
  /** Records the service acknowledged. */
  exported: number;
  /** HTTP attempts that were retried. */
  retried: number;
  /** Records below `minLevel`, not sent on purpose (not a loss). */
  filtered: number;
  /** Batches sent again uncompressed because a target refused gzip (`compression: 'auto'`). */
  encodingFallbacks: number;
  dropped: Record<DropReason, number>;
  /** Key lookups through the service that failed (they are tried again on the next export). */
  keyLookupFailures: number;
  /** Queued batches over all targets. */
  backlog: { bytes: number; batches: number };
  /** The disk spool, when `spoolDir` is set. */
  spool: SpoolStats | undefined;
  /** Keyed by `<username>/<uuid>`, or `team/<team>/<uuid>` for a team's resource. */
  targets: Record<string, TargetStats>;
}
