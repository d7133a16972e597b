import { describe, expect, it } from 'vitest';
import { createLogFollower, type FollowSink } from '../../../src/receiver/ingest/log-follower.js';
import type { StoredLog } from '../../../src/receiver/store/log-store.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A store of ids 1…n, a sink that records writes, and a commit notifier. */
function harness(
  options: { maxBufferBytes?: number; heartbeatMillis?: number; allowed?: () => boolean } = {},
) {
  let newest = 0;
  const reads: number[] = [];
  const written: string[] = [];
  let pending = 0;
  let drained: (() => void) | undefined;
  let listener: (() => void) | undefined;
  const ends: string[] = [];
  const sink: FollowSink = {
    write(text) {
      written.push(text);
      pending += text.length;
    },
    pendingBytes: () => pending,
    onceDrained(callback) {
      drained = callback;
      return () => {
        drained = undefined;
      };
    },
  };
  const follower = createLogFollower({
    subscribe(callback) {
      listener = callback;
      return () => {
        listener = undefined;
      };
    },
    fetch(afterId, limit) {
      reads.push(afterId);
      const logs: StoredLog[] = [];
      for (let id = afterId + 1; id <= newest && logs.length < limit; id++) {
        logs.push({ id } as StoredLog);
      }
      const scannedTo = logs.length === limit ? (logs.at(-1) as StoredLog).id : newest;
      return { logs, scannedTo, more: scannedTo < newest };
    },
    format: (log) => `${log.id}\n`,
    heartbeat: '\n',
    sink,
    afterId: 0,
    maxBufferBytes: options.maxBufferBytes ?? 1 << 20,
    heartbeatMillis: options.heartbeatMillis ?? 60_000,
    batchSize: 3,
    ...(options.allowed ? { stillAllowed: options.allowed } : {}),
    onEnd: (reason) => ends.push(reason),
  });
  return {
    follower,
    reads,
    written,
    ends,
    commit(count: number) {
      newest += count;
      listener?.();
    },
    get subscribed() {
      return listener !== undefined;
    },
    drain() {
      pending = 0;
      drained?.();
    },
  };
}

describe('createLogFollower', () => {
  it('coalesces a burst of commits into one read per turn, and reads on in batches', async () => {
    const h = harness();
    await nextTurn();
    h.reads.length = 0;
    for (let i = 0; i < 5; i++) h.commit(1); // five commits in one turn
    expect(h.reads).toEqual([]); // never inside the committer's call
    await nextTurn();
    await nextTurn();
    // 5 records, batches of 3: two reads, one after the other.
    expect(h.reads).toEqual([0, 3]);
    expect(h.written.join('')).toBe('1\n2\n3\n4\n5\n');
    expect(h.follower.lastId).toBe(5);
    h.follower.stop();
  });

  it('stops reading while the client has the bound unread, resumes on drain', async () => {
    const h = harness({ maxBufferBytes: 4 });
    h.commit(6);
    for (let i = 0; i < 4; i++) await nextTurn();
    expect(h.written.join('')).toBe('1\n2\n3\n'); // 6 bytes ≥ 4: no second read
    h.drain();
    for (let i = 0; i < 4; i++) await nextTurn();
    expect(h.written.join('')).toBe('1\n2\n3\n4\n5\n6\n');
    expect(h.ends).toEqual([]);
    h.follower.stop();
  });

  it('cuts off a client that leaves the buffer full for a heartbeat interval', async () => {
    const h = harness({ maxBufferBytes: 4, heartbeatMillis: 20 });
    h.commit(6);
    const deadline = Date.now() + 2000;
    while (h.ends.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(h.ends).toEqual(['cut']);
    expect(h.subscribed).toBe(false);
  });

  it('stop() unsubscribes once and ends "closed"', async () => {
    const h = harness();
    expect(h.subscribed).toBe(true);
    h.follower.stop();
    h.follower.stop();
    expect(h.subscribed).toBe(false);
    expect(h.ends).toEqual(['closed']);
  });

  it('asks every heartbeat whether the client may still read, and ends "revoked" when not', async () => {
    let allowed = true;
    let asked = 0;
    const h = harness({
      heartbeatMillis: 10,
      allowed: () => {
        asked++;
        return allowed;
      },
    });
    const deadline = Date.now() + 2000;
    while (asked < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(h.ends).toEqual([]);
    expect(h.written.filter((text) => text === '\n').length).toBeGreaterThanOrEqual(2);
    allowed = false;
    while (h.ends.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(h.ends).toEqual(['revoked']);
    expect(h.subscribed).toBe(false);
  });
});
