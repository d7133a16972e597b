import type { QueuedBatch } from '../queued-batch.js';

/** What `append()` did. */
export type SpoolAppend =
  | {
      readonly ok: true;
      /** Frame bytes the batch takes on disk. */
      readonly bytes: number;
      /** Ids of the oldest spooled batches removed to stay within `maxSpoolBytes`. */
      readonly evicted: readonly string[];
    }
  | { readonly ok: false; readonly error: Error };

export interface SpoolFigures {
  /**
   * Frame bytes of live (not yet removed) batches, in all and per target key: what `maxBytes`
   * bounds. Segment files are larger by the tombstones and removed batches they still hold.
   */
  readonly bytes: number;
  readonly bytesByTarget: ReadonlyMap<string, number>;
  /**
   * Frames skipped because their checksum or length was wrong (torn or corrupt): at recovery,
   * and when `read()` found a body damaged.
   */
  readonly corruptFrames: number;
  /**
   * Writes that failed because the disk or directory did (ENOSPC, EACCES, …): appends refused,
   * removals recorded in memory only (the batch may be replayed after a restart).
   */
  readonly writeErrors: number;
  /** Segment files of dead processes taken over by this one. */
  readonly adoptedSegments: number;
}

/**
 * A disk spool of queued batches (docs/exporter.md, "Disk spool"). Appends are written to an
 * append-only segment file before `append()` returns; removals are recorded so a batch is
 * never replayed after it was delivered or dropped. Never throws into the caller: failures are
 * results and counters.
 */
export interface Spool {
  /**
   * Opens the directory: takes this process's lock, adopts segments of dead processes, and
   * returns every batch an earlier process left and never removed, oldest first, with
   * `body: undefined` (read them with {@link read}). Call once, before any append.
   */
  recover(): Promise<QueuedBatch[]>;
  /** Writes the batch (its `body` must be set) before returning; evicts the oldest to fit. */
  append(batch: QueuedBatch): SpoolAppend;
  /** The batch's body read back from disk, or `undefined` when it is gone or corrupt. */
  read(id: string): Buffer | undefined;
  /** The batch was delivered or dropped: it must never be replayed. */
  remove(id: string): void;
  stats(): SpoolFigures;
  /** Flushes to disk (fsync), deletes segments with nothing live, releases the lock. */
  close(): Promise<void>;
}
