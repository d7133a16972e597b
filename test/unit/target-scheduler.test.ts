import { describe, expect, it } from 'vitest';
import { createTargetScheduler } from '../../src/exporter/target-scheduler.js';

/** A task that runs only when the test says so, recording when it started. */
function controllable(log: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    task: () => {
      log.push(`start ${name}`);
      return done;
    },
    finish: () => {
      log.push(`end ${name}`);
      finish(name);
    },
    fail: () => {
      log.push(`fail ${name}`);
      fail(new Error(name));
    },
  };
}

/** Lets every pending promise callback run (no timers, no fixed sleep). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('target scheduler', () => {
  it('runs the tasks of one target strictly one after another, in order', async () => {
    const scheduler = createTargetScheduler(8);
    const log: string[] = [];
    const [a, b, c] = ['a1', 'a2', 'a3'].map((name) => controllable(log, name));
    if (!a || !b || !c) throw new Error('setup');

    const results = [a, b, c].map((t) => scheduler.run('alice/1', t.task));
    await settle();
    expect(log).toEqual(['start a1']);
    a.finish();
    await settle();
    expect(log).toEqual(['start a1', 'end a1', 'start a2']);
    b.finish();
    await settle();
    c.finish();
    await expect(Promise.all(results)).resolves.toEqual(['a1', 'a2', 'a3']);
    expect(log).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
  });

  it('a failed task rejects its own promise and does not block the next one', async () => {
    const scheduler = createTargetScheduler(8);
    const log: string[] = [];
    const first = controllable(log, 'first');
    const second = controllable(log, 'second');

    const one = scheduler.run('t', first.task);
    const two = scheduler.run('t', second.task);
    await settle();
    first.fail();
    await expect(one).rejects.toThrow('first');
    await settle();
    second.finish();
    await expect(two).resolves.toBe('second');
    expect(log).toEqual(['start first', 'fail first', 'start second', 'end second']);
  });

  it('runs different targets concurrently, at most maxConcurrency at once', async () => {
    const scheduler = createTargetScheduler(2);
    const log: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((name) => controllable(log, name));
    const results = tasks.map((t, i) => scheduler.run(`target-${i}`, t.task));

    await settle();
    expect(log).toEqual(['start a', 'start b']);
    tasks[1]?.finish();
    await settle();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    tasks[0]?.finish();
    await settle();
    expect(log.slice(-2)).toEqual(['end a', 'start d']);
    tasks[2]?.finish();
    tasks[3]?.finish();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'd']);
  });

  it('a slow target never holds back another target', async () => {
    const scheduler = createTargetScheduler(2);
    const log: string[] = [];
    const slow = controllable(log, 'slow');
    scheduler.run('stalled', slow.task);
    scheduler.run('stalled', controllable(log, 'queued').task);

    const results: string[] = [];
    for (let i = 0; i < 5; i++) {
      results.push(await scheduler.run('healthy', async () => `ok${i}`));
    }
    expect(results).toEqual(['ok0', 'ok1', 'ok2', 'ok3', 'ok4']);
    expect(log).toEqual(['start slow']);
    slow.finish();
  });

  it('keeps going after a target became idle', async () => {
    const scheduler = createTargetScheduler(1);
    await expect(scheduler.run('t', async () => 1)).resolves.toBe(1);
    await settle();
    await expect(scheduler.run('t', async () => 2)).resolves.toBe(2);
  });
});
