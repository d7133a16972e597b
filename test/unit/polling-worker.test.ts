import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createPollingWorker,
  type PollingWorkerOptions,
} from '../../src/receiver/monitor/polling-worker.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A worker whose passes are counted and can be held open until released. */
function worker(overrides: Partial<PollingWorkerOptions> = {}) {
  const passes: AbortSignal[] = [];
  let release: (() => void) | undefined;
  let hold = false;
  const warn = vi.fn();
  const options: PollingWorkerOptions = {
    name: 'test worker',
    clock: Date.now,
    pollMillis: 1000,
    async pass(signal) {
      passes.push(signal);
      if (hold) await new Promise<void>((resolve) => (release = resolve));
    },
    nextDueMs: () => undefined,
    isOpen: () => true,
    log: { warn },
    ...overrides,
  };
  return {
    worker: createPollingWorker(options),
    passes,
    warn,
    holdPasses(on: boolean) {
      hold = on;
    },
    release() {
      release?.();
    },
  };
}

describe('polling worker', () => {
  it('passes at once on start, then every pollMillis when nothing is due', async () => {
    vi.useFakeTimers();
    const w = worker();
    w.worker.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.passes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(w.passes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(w.passes).toHaveLength(2);
    await w.worker.stop();
  });

  it('wakes at the next due time when that is sooner than pollMillis', async () => {
    vi.useFakeTimers();
    const w = worker({ nextDueMs: () => Date.now() + 250 });
    w.worker.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(250);
    expect(w.passes).toHaveLength(2);
    await w.worker.stop();
  });

  it('never runs two passes at once: kicks during a pass become one more pass after it', async () => {
    const w = worker();
    w.holdPasses(true);
    w.worker.start();
    w.worker.kick();
    w.worker.kick();
    expect(w.passes).toHaveLength(1);
    w.holdPasses(false);
    w.release();
    await vi.waitFor(() => expect(w.passes).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(w.passes).toHaveLength(2);
    await w.worker.stop();
  });

  it('stop aborts the pass in flight, waits for it, then runs onStop; kicks after stop do nothing', async () => {
    const order: string[] = [];
    const w = worker({
      async pass(signal) {
        order.push('pass');
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        order.push('pass aborted');
      },
      async onStop() {
        order.push('onStop');
      },
    });
    w.worker.start();
    await w.worker.stop();
    w.worker.kick();
    expect(order).toEqual(['pass', 'pass aborted', 'onStop']);
  });

  it('does not pass once the database is closed, and logs a failed pass without stopping', async () => {
    let open = true;
    let fail = true;
    const calls: number[] = [];
    const w = worker({
      isOpen: () => open,
      async pass() {
        calls.push(1);
        if (fail) throw new Error('boom');
      },
    });
    w.worker.start();
    await vi.waitFor(() =>
      expect(w.warn).toHaveBeenCalledWith(expect.anything(), 'test worker failed'),
    );
    fail = false;
    w.worker.kick();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    open = false;
    w.worker.kick();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toHaveLength(2);
    await w.worker.stop();
  });
});
