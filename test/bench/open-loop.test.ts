import { describe, expect, it } from 'vitest';
import { type Clock, runOpenLoop, summarizeLatencies } from '../../bench/open-loop.ts';

/**
 * A discrete-event clock: time moves only when every pending promise has settled, to the
 * earliest timer, so a run of seconds takes microseconds and its latencies are exact.
 */
function simulation(options: { wakeEarlyMillis?: number } = {}) {
  let now = 0;
  const timers: Array<{ at: number; wake: () => void }> = [];
  const at = (time: number) =>
    new Promise<void>((wake) => {
      timers.push({ at: time, wake });
    });
  const clock: Clock = {
    now: () => now,
    sleep: (millis) => at(now + millis - (options.wakeEarlyMillis ?? 0)),
  };
  async function drive<T>(run: Promise<T>): Promise<T> {
    let settled = false;
    void run.finally(() => {
      settled = true;
    });
    while (true) {
      await new Promise((resolve) => setImmediate(resolve));
      if (settled) return run;
      timers.sort((a, b) => a.at - b.at);
      const next = timers.shift();
      if (!next) throw new Error('nothing scheduled and the run has not finished');
      now = Math.max(now, next.at);
      next.wake();
    }
  }
  /** One FIFO server: each request takes `serviceMillis`; nothing is served during `stall`. */
  function server(serviceMillis: number, stall?: { from: number; to: number }) {
    let freeAt = 0;
    return () => {
      let start = Math.max(now, freeAt);
      if (stall && start >= stall.from && start < stall.to) start = stall.to;
      freeAt = start + serviceMillis;
      return at(freeAt);
    };
  }
  return { clock, drive, server };
}

describe('runOpenLoop', () => {
  it('sends on schedule and times each request from its due time', async () => {
    const sim = simulation();
    const run = await sim.drive(
      runOpenLoop({
        requestsPerSecond: 1000,
        durationMillis: 100,
        send: sim.server(0.5),
        clock: sim.clock,
      }),
    );
    expect(run.latencies).toHaveLength(100);
    expect([...new Set(run.latencies)]).toEqual([0.5]);
    expect(Math.max(...run.sendLags)).toBe(0);
    expect(run.failures).toBe(0);
    expect(run.elapsedMillis).toBe(99.5);
  });

  // Coordinated omission: a generator that waits for answers, or times from the actual send,
  // records a 50 ms stall once; every request due during it waited for it.
  it('charges a server stall to every request due during it', async () => {
    const sim = simulation();
    const run = await sim.drive(
      runOpenLoop({
        requestsPerSecond: 1000,
        durationMillis: 200,
        send: sim.server(0.5, { from: 10, to: 60 }),
        clock: sim.clock,
      }),
    );
    const latencies = [...run.latencies];
    // Due at 10 ms, served at 60: the longest wait is the stall itself.
    expect(Math.max(...latencies)).toBe(50.5);
    // Due 10–59 ms waited for the stall, and the queue it left takes another ≈ 50 ms to clear.
    expect(latencies.filter((ms) => ms > 10).length).toBeGreaterThanOrEqual(60);
    expect(latencies.slice(0, 10).every((ms) => ms === 0.5)).toBe(true);
    expect(latencies.slice(-50).every((ms) => ms === 0.5)).toBe(true);
    expect(summarizeLatencies(latencies).p99).toBeGreaterThan(45);
    // The generator itself never fell behind: the latency is the server's.
    expect(Math.max(...run.sendLags)).toBe(0);
  });

  // libuv's timers run on a millisecond clock and may fire before performance.now() reaches
  // the due time: such a request counts from when it really left, never less than its RTT.
  it('times a request sent before its due time from its actual send', async () => {
    const sim = simulation({ wakeEarlyMillis: 0.4 });
    const run = await sim.drive(
      runOpenLoop({
        requestsPerSecond: 1000,
        durationMillis: 20,
        send: sim.server(0.25),
        clock: sim.clock,
      }),
    );
    expect([...new Set(run.latencies)]).toEqual([0.25]);
    expect(Math.min(...run.sendLags)).toBeCloseTo(-0.4);
  });

  it('counts failed requests and still times them', async () => {
    const sim = simulation();
    let n = 0;
    const serve = sim.server(1);
    const run = await sim.drive(
      runOpenLoop({
        requestsPerSecond: 100,
        durationMillis: 100,
        send: () =>
          serve().then(() => (n++ % 2 === 0 ? undefined : Promise.reject(new Error('503')))),
        clock: sim.clock,
      }),
    );
    expect(run.failures).toBe(5);
    expect([...new Set(run.latencies)]).toEqual([1]);
  });
});

describe('summarizeLatencies', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 1000 }, (_, i) => i + 1).reverse();
    expect(summarizeLatencies(values)).toEqual({ p50: 500, p99: 990, p999: 999, max: 1000 });
  });

  it('makes p99.9 of 1 600 samples the second largest', () => {
    const values = Array.from({ length: 1600 }, (_, i) => i);
    expect(summarizeLatencies(values).p999).toBe(1598);
  });
});
