import type { BatchMeta } from './segment-format.js';

/**
 * The in-memory map of a spool (docs/exporter.md, "Disk spool"): where each live batch is, how
 * many live batches each segment holds, and which segments must outlive which. A segment holding
 * a tombstone for a batch in another segment must stay until that other segment is deleted, or
 * the batch would come back at the next recovery; since a tombstone always follows its batch,
 * these links point to older segments and never form a cycle.
 */
export interface Segment {
  readonly path: string;
  /** Bytes written (own segments) or read (adopted ones). */
  size: number;
  live: number;
  /** Being written: never deleted. */
  current: boolean;
  deleted: boolean;
  /** Segments holding batches that this one's tombstones remove. */
  readonly needs: Set<Segment>;
  /** Segments whose tombstones remove batches of this one. */
  readonly neededBy: Set<Segment>;
}

export interface SpoolEntry {
  readonly meta: BatchMeta;
  readonly segment: Segment;
  /** Start of the frame in the segment, and its size. */
  readonly offset: number;
  readonly bytes: number;
}

export function newSegment(path: string, current: boolean): Segment {
  return { path, size: 0, live: 0, current, deleted: false, needs: new Set(), neededBy: new Set() };
}

export interface SpoolIndex {
  /** Live batches, in eviction order (oldest first). */
  readonly entries: Map<string, SpoolEntry>;
  bytes(): number;
  bytesByTarget(): ReadonlyMap<string, number>;
  add(entry: SpoolEntry): void;
  /** Forgets a live batch; `tombstoneIn` is the segment that recorded its removal. */
  kill(id: string, tombstoneIn: Segment | undefined): SpoolEntry | undefined;
  /**
   * Deletes `segment` if nothing needs it any more, then whatever that frees in turn. `unlink`
   * removes the file; when it fails the segment stays (and keeps what it needs).
   */
  sweep(segment: Segment, unlink: (segment: Segment) => boolean): void;
  /** Re-orders the live batches (after recovery: oldest first). */
  reorder(ordered: readonly SpoolEntry[]): void;
}

export function createSpoolIndex(): SpoolIndex {
  const entries = new Map<string, SpoolEntry>();
  const byTarget = new Map<string, number>();
  let bytes = 0;

  const account = (entry: SpoolEntry, sign: 1 | -1) => {
    bytes += sign * entry.bytes;
    entry.segment.live += sign;
    const key = entry.meta.target.key;
    const next = (byTarget.get(key) ?? 0) + sign * entry.bytes;
    if (next > 0) byTarget.set(key, next);
    else byTarget.delete(key);
  };

  const kill = (id: string, tombstoneIn: Segment | undefined) => {
    const entry = entries.get(id);
    if (!entry) return undefined;
    entries.delete(id);
    account(entry, -1);
    if (tombstoneIn && tombstoneIn !== entry.segment && !entry.segment.deleted) {
      tombstoneIn.needs.add(entry.segment);
      entry.segment.neededBy.add(tombstoneIn);
    }
    return entry;
  };

  const sweep = (segment: Segment, unlink: (segment: Segment) => boolean) => {
    const pending = [segment];
    for (let next = pending.pop(); next; next = pending.pop()) {
      if (next.deleted || next.current || next.live > 0 || next.needs.size > 0) continue;
      if (!unlink(next)) continue;
      next.deleted = true;
      for (const dependent of next.neededBy) {
        dependent.needs.delete(next);
        pending.push(dependent);
      }
      next.neededBy.clear();
    }
  };

  return {
    entries,
    bytes: () => bytes,
    bytesByTarget: () => byTarget,
    add(entry) {
      // The same id written again replaces the older frame.
      kill(entry.meta.id, entry.segment);
      entries.set(entry.meta.id, entry);
      account(entry, 1);
    },
    kill,
    sweep,
    reorder(ordered) {
      entries.clear();
      for (const entry of ordered) entries.set(entry.meta.id, entry);
    },
  };
}
