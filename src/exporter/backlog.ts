import type { QueuedBatch } from './queued-batch.js';
import type { Spool } from './spool/spool.js';

/** Why the backlog let a batch go without sending it. */
export type BacklogDropReason = 'backlog_full' | 'expired';

export interface BacklogOptions {
  /** Most bytes of bodies held in memory over all targets. */
  readonly maxBytes: number;
  /** Oldest a batch may get before it is dropped as `expired`. */
  readonly maxAgeMillis: number;
  /** Where batches also go, so that they survive a restart; bodies beyond `maxBytes` stay only there. */
  readonly spool?: Spool | undefined;
  /** Told of every batch the backlog drops, with the reason. */
  readonly onDrop: (batch: QueuedBatch, reason: BacklogDropReason) => void;
  readonly now?: () => number;
}

/** Per-target figures of `getStats()`. */
export interface TargetBacklog {
  readonly bytes: number;
  readonly batches: number;
  /** Age of the oldest batch, 0 when there is none. */
  readonly oldestAgeMillis: number;
}

export interface Backlog {
  /**
   * Takes a batch (its body set): into the spool when there is one, and into memory. Makes
   * room by dropping the oldest batches (of any target); a batch larger than the whole bound
   * is refused (`false`, the caller counts it).
   */
  add(batch: QueuedBatch): boolean;
  /** Takes a batch recovered from the spool (body on disk). */
  restore(batch: QueuedBatch): void;
  /** The oldest batch of a target, dropping expired ones first, or `undefined`. */
  head(target: string): QueuedBatch | undefined;
  /** Marks the head as being sent: it is not dropped to make room until it is settled. */
  hold(batch: QueuedBatch): void;
  /** The attempt ended without settling (a retry): the batch may age out or make room again. */
  unhold(batch: QueuedBatch): void;
  /** When the batch reaches the age bound, epoch milliseconds. */
  expiresAt(batch: QueuedBatch): number;
  /** Drops the batch as `expired` now (a wait for it would end past its age bound). */
  expireNow(batch: QueuedBatch): void;
  /** Removes a batch that was delivered or dropped by the caller (and from the spool). */
  settle(batch: QueuedBatch): void;
  /** Replaces the head of its target by `parts` (a 413 split), in order. */
  replace(batch: QueuedBatch, parts: readonly QueuedBatch[]): void;
  /** The body changed (read back from disk, or resent uncompressed): keeps the count right. */
  resized(batch: QueuedBatch, previous: Buffer | undefined): void;
  /** Drops every batch left (with `reason`), e.g. at shutdown without a spool. */
  dropAll(reason: BacklogDropReason | 'shutdown', onDropped: (batch: QueuedBatch) => void): void;
  /** Lets go of every batch in memory without dropping it: they stay in the spool. */
  releaseAll(): void;
  targets(): string[];
  stats(target: string): TargetBacklog;
  /** Batches held over all targets. */
  size(): number;
  bytes(): number;
}

/**
 * The per-target queues behind `export()` (docs/exporter.md, "Delivery"): bounded in bytes
 * over all targets and in age, the oldest dropped first. Each target's queue is in the order
 * `export()` accepted its batches, so the service receives a resource's logs in order.
 */
export function createBacklog(options: BacklogOptions): Backlog {
  const now = options.now ?? Date.now;
  const spool = options.spool;
  const queues = new Map<string, QueuedBatch[]>();
  const inFlight = new Set<QueuedBatch>();
  let bytesInMemory = 0;
  let count = 0;

  /**
   * The memory a body holds: its whole backing allocation when it starts one (a pooled body
   * buffer is rounded up to 64 KiB steps, see body-buffers.ts), so that `maxBytes` bounds what
   * the process really keeps, not only the bytes that will be sent.
   */
  const memoryOfBody = (body: Buffer | undefined) => {
    if (!body) return 0;
    return body.byteOffset === 0 ? Math.max(body.length, body.buffer.byteLength) : body.length;
  };
  const memoryOf = (batch: QueuedBatch) => memoryOfBody(batch.body);

  const queueOf = (target: string) => {
    let queue = queues.get(target);
    if (!queue) {
      queue = [];
      queues.set(target, queue);
    }
    return queue;
  };

  const remove = (batch: QueuedBatch) => {
    const queue = queues.get(batch.target.key);
    const index = queue ? queue.indexOf(batch) : -1;
    if (!queue || index < 0) return false;
    queue.splice(index, 1);
    if (queue.length === 0) queues.delete(batch.target.key);
    bytesInMemory -= memoryOf(batch);
    count--;
    inFlight.delete(batch);
    spool?.remove(batch.id);
    return true;
  };

  const drop = (batch: QueuedBatch, reason: BacklogDropReason) => {
    if (remove(batch)) options.onDrop(batch, reason);
  };

  /**
   * The oldest batch over all targets that holds memory and is not being sent, if any: one
   * whose body is only on disk costs no memory, so dropping it would not make room.
   */
  const oldest = (exclude?: QueuedBatch): QueuedBatch | undefined => {
    let found: QueuedBatch | undefined;
    for (const queue of queues.values()) {
      for (const batch of queue) {
        if (inFlight.has(batch) || batch === exclude || batch.body === undefined) continue;
        if (!found || batch.enqueuedAt < found.enqueuedAt) found = batch;
        break;
      }
    }
    return found;
  };

  /** Over the memory bound: bodies that are also on disk leave memory first, newest first. */
  const pageOut = () => {
    if (!spool) return;
    for (const queue of queues.values()) {
      for (let i = queue.length - 1; i > 0 && bytesInMemory > options.maxBytes; i--) {
        const batch = queue[i] as QueuedBatch;
        if (batch.body && spooled.has(batch.id) && !inFlight.has(batch)) {
          bytesInMemory -= memoryOf(batch);
          batch.body = undefined;
        }
      }
      if (bytesInMemory <= options.maxBytes) return;
    }
  };

  /** Ids of batches written to the spool. */
  const spooled = new Set<string>();

  const expire = () => {
    const limit = now() - options.maxAgeMillis;
    for (const queue of [...queues.values()]) {
      let i = 0;
      while (i < queue.length) {
        const batch = queue[i] as QueuedBatch;
        if (batch.enqueuedAt >= limit) break;
        if (inFlight.has(batch)) i++;
        else drop(batch, 'expired');
      }
    }
  };

  return {
    add(batch) {
      const size = memoryOf(batch);
      if (size > options.maxBytes) return false;
      if (spool) {
        const written = spool.append(batch);
        if (written.ok) {
          spooled.add(batch.id);
          for (const id of written.evicted) {
            const evicted = findById(id);
            if (!evicted) continue;
            spooled.delete(id);
            // A batch being sent has its body in memory: it goes on, only no longer on disk.
            // Dropping it would count as lost a batch the service may be storing right now.
            if (!inFlight.has(evicted)) drop(evicted, 'backlog_full');
          }
        }
      }
      queueOf(batch.target.key).push(batch);
      bytesInMemory += size;
      count++;
      expire();
      pageOut();
      while (bytesInMemory > options.maxBytes) {
        const victim = oldest(batch);
        if (!victim) break;
        drop(victim, 'backlog_full');
      }
      return true;
    },
    restore(batch) {
      spooled.add(batch.id);
      queueOf(batch.target.key).push(batch);
      bytesInMemory += memoryOf(batch);
      count++;
    },
    head(target) {
      expire();
      return queues.get(target)?.[0];
    },
    hold(batch) {
      inFlight.add(batch);
    },
    unhold(batch) {
      inFlight.delete(batch);
    },
    expiresAt: (batch) => batch.enqueuedAt + options.maxAgeMillis,
    expireNow(batch) {
      drop(batch, 'expired');
    },
    settle(batch) {
      remove(batch);
      spooled.delete(batch.id);
    },
    replace(batch, parts) {
      const queue = queues.get(batch.target.key);
      const index = queue ? queue.indexOf(batch) : -1;
      if (!queue || index < 0) return;
      queue.splice(index, 1, ...parts);
      bytesInMemory -= memoryOf(batch);
      inFlight.delete(batch);
      count += parts.length - 1;
      for (const part of parts) {
        bytesInMemory += memoryOf(part);
        if (spool?.append(part).ok) spooled.add(part.id);
      }
      spool?.remove(batch.id);
      spooled.delete(batch.id);
    },
    resized(batch, previous) {
      bytesInMemory += memoryOf(batch) - memoryOfBody(previous);
    },
    dropAll(reason, onDropped) {
      for (const queue of [...queues.values()]) {
        for (const batch of [...queue]) {
          remove(batch);
          if (reason === 'shutdown') onDropped(batch);
          else options.onDrop(batch, reason);
        }
      }
    },
    releaseAll() {
      queues.clear();
      inFlight.clear();
      bytesInMemory = 0;
      count = 0;
    },
    targets: () => [...queues.keys()],
    stats(target) {
      const queue = queues.get(target) ?? [];
      let bytes = 0;
      for (const batch of queue) bytes += memoryOf(batch);
      const first = queue[0];
      return {
        bytes,
        batches: queue.length,
        oldestAgeMillis: first ? Math.max(0, now() - first.enqueuedAt) : 0,
      };
    },
    size: () => count,
    bytes: () => bytesInMemory,
  };

  function findById(id: string): QueuedBatch | undefined {
    for (const queue of queues.values()) {
      for (const batch of queue) if (batch.id === id) return batch;
    }
    return undefined;
  }
}
