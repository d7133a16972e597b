import type { StoredLog } from '../store/log-store.js';

/** Where a follower writes: an HTTP response in practice (docs/receiver.md, "Follow"). */
export interface FollowSink {
  write(text: string): void;
  /** Bytes written but not yet taken by the client's connection. */
  pendingBytes(): number;
  /** Calls `listener` once when the pending bytes were taken; returns a canceller. */
  onceDrained(listener: () => void): () => void;
}

export interface LogFollowerOptions {
  /** Subscribes to commits of the followed resource; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * Matching logs with id > `afterId`, in id order, at most `limit`; `scannedTo`: the next
   * read starts after it; `more`: there is more to read now.
   */
  fetch(afterId: number, limit: number): { logs: StoredLog[]; scannedTo: number; more: boolean };
  /** One log as the wire format writes it (an NDJSON line, an SSE event). */
  format(log: StoredLog): string;
  /** What keeps an idle connection alive through proxies (an empty line, an SSE comment). */
  heartbeat: string;
  sink: FollowSink;
  /** Last id already sent (or not to be sent): the follower sends what comes after it. */
  afterId: number;
  /** Most bytes kept for a client that has not taken them (`maxFollowBufferBytes`). */
  maxBufferBytes: number;
  heartbeatMillis: number;
  /** Records read from the store at once. @default 200 */
  batchSize?: number;
  /**
   * Asked every `heartbeatMillis` whether the client may still read; false ends the stream
   * (`revoked`). @default always true
   */
  stillAllowed?: () => boolean;
  /**
   * Called once when the follower stops; `cut`: the client was too slow and is dropped,
   * `revoked`: {@link stillAllowed} said no.
   */
  onEnd(reason: FollowEnd, error?: unknown): void;
}

export type FollowEnd = 'cut' | 'closed' | 'revoked' | 'error';

export interface LogFollower {
  /** Every id up to this one was sent or did not match. */
  readonly lastId: number;
  /** Stops following (the client went away, the receiver closes); idempotent. */
  stop(): void;
}

/**
 * Sends a resource's new logs to one client (docs/receiver.md, "Follow"). A commit only marks
 * the follower dirty; the store is read on a later turn of the event loop, one batch at a
 * time, so ingest never waits for followers and a burst of commits is one query. While the
 * client has `maxBufferBytes` unread, nothing more is read: new records wait in the database,
 * not in memory. A client that leaves the buffer full for a whole heartbeat interval is cut.
 * Access is asked again every heartbeat interval: a revoked reader is not followed for longer.
 */
export function createLogFollower(options: LogFollowerOptions): LogFollower {
  const { sink, maxBufferBytes, heartbeatMillis } = options;
  const batchSize = options.batchSize ?? 200;
  let lastId = options.afterId;
  let dirty = true;
  let scheduled = false;
  let stopped = false;
  /** Set while waiting for the client to take its buffer: when that started. */
  let stalledSince: number | undefined;
  let cancelDrain: (() => void) | undefined;
  let wroteSinceTick = false;

  const end = (reason: FollowEnd, error?: unknown) => {
    if (stopped) return;
    stopped = true;
    unsubscribe();
    clearInterval(ticker);
    cancelDrain?.();
    options.onEnd(reason, error);
  };

  const schedule = () => {
    if (scheduled || stopped || stalledSince !== undefined) return;
    scheduled = true;
    setImmediate(pump);
  };

  function pump() {
    scheduled = false;
    if (stopped || !dirty) return;
    if (sink.pendingBytes() >= maxBufferBytes) {
      stalledSince = Date.now();
      cancelDrain = sink.onceDrained(resume);
      return;
    }
    let read: ReturnType<LogFollowerOptions['fetch']>;
    try {
      read = options.fetch(lastId, batchSize);
    } catch (error) {
      end('error', error);
      return;
    }
    lastId = read.scannedTo;
    // More to read: on a later turn of the event loop, so that ingest runs in between.
    dirty = read.more;
    if (read.logs.length > 0) {
      let text = '';
      for (const log of read.logs) text += options.format(log);
      sink.write(text);
      wroteSinceTick = true;
    }
    if (dirty) schedule();
  }

  function resume() {
    cancelDrain = undefined;
    stalledSince = undefined;
    schedule();
  }

  const unsubscribe = options.subscribe(() => {
    dirty = true;
    schedule();
  });

  const ticker = setInterval(() => {
    if (options.stillAllowed && !options.stillAllowed()) {
      end('revoked');
      return;
    }
    if (stalledSince !== undefined) {
      if (sink.pendingBytes() < maxBufferBytes) {
        cancelDrain?.();
        resume();
      } else if (Date.now() - stalledSince >= heartbeatMillis) {
        end('cut');
      }
      return;
    }
    // Only an idle stream needs the heartbeat; one that carried logs kept proxies awake.
    if (!wroteSinceTick) sink.write(options.heartbeat);
    wroteSinceTick = false;
  }, heartbeatMillis);
  ticker.unref();

  schedule();
  return {
    get lastId() {
      return lastId;
    },
    stop() {
      end('closed');
    },
  };
}
