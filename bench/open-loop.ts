/**
 * An open-loop request schedule (scenario 7): request `i` is due at `start + i / rate`,
 * whether or not earlier requests have been answered, and its latency is measured from that
 * due time, not from when it was actually sent. A closed-loop generator, or one that times
 * from the actual send, waits out a stalled server and so leaves the stall out of most
 * samples ("coordinated omission", Gil Tene): a 100 ms pause would show up in one request
 * instead of in every request due during it.
 */
import { percentile } from './summary.ts';

export interface Clock {
  now(): number;
  /** Resolves after about `millis` (never early by more than the clock's granularity). */
  sleep(millis: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (millis) => new Promise((resolve) => setTimeout(resolve, millis)),
};

export interface OpenLoopOptions {
  requestsPerSecond: number;
  durationMillis: number;
  /** One request; resolves when its answer is complete. A rejection counts as a failure. */
  send(): Promise<void>;
  clock?: Clock;
}

export interface OpenLoopRun {
  /**
   * Per request: answer complete − the earlier of its due time and its actual send, in
   * milliseconds, in due order. Late sends count from the due time (the generator's lag is
   * charged); a timer may also wake before the due time (libuv's millisecond clock), and
   * then the request counts from when it really left.
   */
  latencies: Float64Array;
  failures: number;
  /** Per request: sent − due time; how far the generator itself fell behind (< 0: early). */
  sendLags: Float64Array;
  elapsedMillis: number;
}

/**
 * Sends `requestsPerSecond × durationMillis / 1000` requests on schedule and resolves once
 * every one of them has been answered. The timer wakes at most every millisecond and then
 * sends everything that has come due, so a request may leave up to ≈ 1 ms after its due
 * time; that lag is part of its latency (the same for every variant) and is reported.
 */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopRun> {
  const clock = options.clock ?? realClock;
  const total = Math.round((options.requestsPerSecond * options.durationMillis) / 1000);
  const interval = 1000 / options.requestsPerSecond;
  const latencies = new Float64Array(total);
  const sendLags = new Float64Array(total);
  const pending: Array<Promise<void>> = [];
  let failures = 0;
  const start = clock.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - clock.now();
    if (wait > 0) await clock.sleep(wait);
    const sent = clock.now();
    sendLags[i] = sent - due;
    const from = Math.min(due, sent);
    pending.push(
      options.send().then(
        () => {
          latencies[i] = clock.now() - from;
        },
        () => {
          latencies[i] = clock.now() - from;
          failures++;
        },
      ),
    );
  }
  await Promise.all(pending);
  return { latencies, failures, sendLags, elapsedMillis: clock.now() - start };
}

export interface LatencySummary {
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

/** Nearest-rank percentiles: p99.9 of 1 600 samples is the 2nd largest. */
export function summarizeLatencies(latencies: ArrayLike<number>): LatencySummary {
  const values = Array.from(latencies);
  return {
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    p999: percentile(values, 99.9),
    max: percentile(values, 100),
  };
}
