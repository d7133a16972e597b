import pLimit from 'p-limit';

export interface TargetScheduler {
  /**
   * Runs `task` after every earlier task of the same target has finished, and while fewer
   * than `maxConcurrency` tasks run overall. One slow target holds one slot, never the others.
   */
  run<T>(target: string, task: () => Promise<T>): Promise<T>;
}

export function createTargetScheduler(maxConcurrency: number): TargetScheduler {
  const limit = pLimit(maxConcurrency);
  const tails = new Map<string, Promise<unknown>>();

  return {
    run(target, task) {
      const previous = tails.get(target) ?? Promise.resolve();
      const result = previous.then(() => limit(task));
      const tail = result.catch(() => undefined);
      tails.set(target, tail);
      // Forget idle targets so the map stays as small as the set of busy ones.
      void tail.then(() => {
        if (tails.get(target) === tail) tails.delete(target);
      });
      return result;
    },
  };
}
