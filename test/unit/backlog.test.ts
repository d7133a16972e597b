import { describe, expect, it } from 'vitest';
import { userOwner } from '../../src/config/owner.js';
import { type BacklogDropReason, createBacklog } from '../../src/exporter/backlog.js';
import type { QueuedBatch } from '../../src/exporter/queued-batch.js';
import type { Spool, SpoolAppend } from '../../src/exporter/spool/spool.js';

let clock = 0;
let seq = 0;

function batch(target: string, bytes: number, enqueuedAt = clock): QueuedBatch {
  seq++;
  return {
    id: `b${seq}`,
    target: { key: target, owner: userOwner('alice'), uuid: target, path: `/${target}` },
    body: Buffer.alloc(bytes),
    gzipped: false,
    envelopeBytes: 0,
    sizes: [1, 1],
    enqueuedAt,
  };
}

function backlogWith(maxBytes: number, spool?: Spool) {
  const dropped: [string, BacklogDropReason][] = [];
  const backlog = createBacklog({
    maxBytes,
    maxAgeMillis: 1000,
    spool,
    onDrop: (b, reason) => dropped.push([b.id, reason]),
    now: () => clock,
  });
  return { backlog, dropped };
}

/** A spool in memory that takes everything. */
function memorySpool(): Spool & { removed: string[] } {
  const bodies = new Map<string, Buffer>();
  const removed: string[] = [];
  return {
    removed,
    async recover() {
      return [];
    },
    append(b): SpoolAppend {
      bodies.set(b.id, b.body as Buffer);
      return { ok: true, bytes: b.body?.length ?? 0, evicted: [] };
    },
    read: (id) => bodies.get(id),
    remove(id) {
      removed.push(id);
      bodies.delete(id);
    },
    stats: () => ({
      bytes: 0,
      batches: 0,
      bytesByTarget: new Map(),
      corruptFrames: 0,
      writeErrors: 0,
      adoptedSegments: 0,
    }),
    async close() {},
  };
}

describe('backlog', () => {
  it('keeps each target in order and counts bytes and batches', () => {
    const { backlog } = backlogWith(1000);
    const [a1, b1, a2] = [batch('a', 10), batch('b', 20), batch('a', 30)];
    for (const b of [a1, b1, a2]) expect(backlog.add(b)).toBe(true);
    expect(backlog.head('a')).toBe(a1);
    expect(backlog.stats('a')).toEqual({ bytes: 40, batches: 2, oldestAgeMillis: 0 });
    backlog.settle(a1);
    expect(backlog.head('a')).toBe(a2);
    expect([backlog.size(), backlog.bytes()]).toEqual([2, 50]);
  });

  it('drops the oldest batches of any target to fit, never the one being sent', () => {
    const { backlog, dropped } = backlogWith(100);
    const first = batch('a', 40, 1);
    const second = batch('b', 40, 2);
    backlog.add(first);
    backlog.add(second);
    backlog.hold(first);
    backlog.add(batch('a', 40, 3));
    expect(dropped).toEqual([[second.id, 'backlog_full']]);
    expect(backlog.bytes()).toBe(80);
  });

  it('refuses a batch larger than the whole bound', () => {
    const { backlog, dropped } = backlogWith(100);
    expect(backlog.add(batch('a', 101))).toBe(false);
    expect(backlog.size()).toBe(0);
    expect(dropped).toEqual([]);
  });

  it('drops batches older than the age bound as expired, unless being sent', () => {
    const { backlog, dropped } = backlogWith(1000);
    clock = 0;
    const old = batch('a', 10, 0);
    const held = batch('b', 10, 0);
    backlog.add(old);
    backlog.add(held);
    backlog.hold(held);
    clock = 1500;
    const fresh = batch('a', 10);
    backlog.add(fresh);
    expect(dropped).toEqual([[old.id, 'expired']]);
    expect(backlog.head('a')).toBe(fresh);
    backlog.unhold(held);
    expect(backlog.head('b')).toBeUndefined();
    expect(dropped.at(-1)).toEqual([held.id, 'expired']);
    clock = 0;
  });

  it('with a spool, bodies beyond the memory bound stay only on disk instead of being dropped', () => {
    const spool = memorySpool();
    const { backlog, dropped } = backlogWith(100, spool);
    const batches = [batch('a', 40), batch('a', 40), batch('a', 40), batch('a', 40)];
    for (const b of batches) backlog.add(b);
    expect(dropped).toEqual([]);
    expect(backlog.size()).toBe(4);
    expect(backlog.bytes()).toBeLessThanOrEqual(100);
    expect(batches[0]?.body).toBeDefined();
    expect(batches.filter((b) => b.body === undefined).length).toBeGreaterThan(0);
    backlog.settle(batches[0] as QueuedBatch);
    expect(spool.removed).toEqual([batches[0]?.id]);
  });

  it('replaces a batch by its halves in place, and the spool forgets the whole', () => {
    const spool = memorySpool();
    const { backlog } = backlogWith(1000, spool);
    const whole = batch('a', 20);
    const next = batch('a', 10);
    backlog.add(whole);
    backlog.add(next);
    const halves = [batch('a', 10), batch('a', 10)];
    backlog.replace(whole, halves);
    expect(backlog.head('a')).toBe(halves[0]);
    expect(backlog.size()).toBe(3);
    expect(spool.removed).toEqual([whole.id]);
  });
});

describe('backlog with a spool that fails', () => {
  it('makes room by dropping batches held in memory, not those whose body is only on disk', () => {
    const spool = memorySpool();
    let failing = false;
    const flaky: Spool = {
      ...spool,
      append: (b) => (failing ? { ok: false, error: new Error('ENOSPC') } : spool.append(b)),
    };
    const { backlog, dropped } = backlogWith(100, flaky);
    const onDisk = [batch('a', 60, 1), batch('a', 60, 2)];
    for (const b of onDisk) backlog.add(b);
    expect(onDisk[1]?.body).toBeUndefined();
    failing = true;
    const memoryOnly = [batch('b', 60, 3), batch('b', 60, 4)];
    for (const b of memoryOnly) backlog.add(b);
    // The paged-out batch stays (it costs no memory); the head and the older memory-only go.
    expect(dropped.map(([id]) => id)).not.toContain(onDisk[1]?.id);
    expect(backlog.bytes()).toBeLessThanOrEqual(100);
  });
});

describe('backlog and spool evictions', () => {
  it('a batch the spool evicts while it is being sent is not counted as dropped', () => {
    const spool = memorySpool();
    const evictions: string[][] = [];
    const evicting: Spool = {
      ...spool,
      append: (b) => {
        spool.append(b);
        return { ok: true, bytes: 10, evicted: evictions.shift() ?? [] };
      },
    };
    const { backlog, dropped } = backlogWith(1000, evicting);
    const sending = batch('a', 10, 1);
    const waiting = batch('b', 10, 2);
    backlog.add(sending);
    backlog.add(waiting);
    backlog.hold(sending);
    evictions.push([sending.id, waiting.id]);
    backlog.add(batch('c', 10, 3));
    expect(dropped).toEqual([[waiting.id, 'backlog_full']]);
    expect(backlog.head('a')).toBe(sending);
  });
});
