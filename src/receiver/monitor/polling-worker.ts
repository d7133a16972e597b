/** What a polling worker needs from the work it drives. */
export interface PollingWorkerOptions {
  /** Names the worker in its one log line (a failed pass). */
  name: string;
  clock: () => number;
  /** Longest sleep between passes (due times are read from `clock`). */
  pollMillis: number;
  /**
   * One pass over what is due. Never two at once: a kick during a pass runs one more pass
   * after it. `signal` aborts when the worker stops; work in flight should end early then.
   */
  pass(signal: AbortSignal): Promise<void>;
  /** When the next item falls due (ms on `clock`); `undefined` when nothing waits. */
  nextDueMs(): number | undefined;
  /** False once the database is closed: no more passes. */
  isOpen(): boolean;
  /** Runs on stop, after the pass in flight settled (e.g. close an HTTP agent). */
  onStop?(): Promise<void>;
  log: { warn(object: object, message: string): void };
}

/** A background worker that looks for due work on a timer, and at once when kicked. */
export interface PollingWorker {
  /** Starts passing (at once, then on the timer); a second call does nothing. */
  start(): void;
  /** Passes now: something was just queued or attached. Ignored unless started. */
  kick(): void;
  /** Stops the timer, aborts the pass in flight and waits for it, then `onStop`. */
  stop(): Promise<void>;
}

/**
 * The one start / kick / stop lifecycle under the receiver's background work (the health
 * checker and the webhook worker): a pass, then a timer to the next due time capped at
 * `pollMillis`, a `kick()` to pass early, and a stop that waits for the pass in flight.
 */
export function createPollingWorker(options: PollingWorkerOptions): PollingWorker {
  let abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    const next = options.isOpen() ? options.nextDueMs() : undefined;
    const wait =
      next === undefined
        ? options.pollMillis
        : Math.min(Math.max(next - options.clock(), 0), options.pollMillis);
    timer = setTimeout(run, wait);
    timer.unref();
  };

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    const passes = async () => {
      do {
        again = false;
        if (stopped || !options.isOpen()) return;
        await options.pass(abort.signal);
      } while (again && !stopped);
    };
    running = passes()
      .catch((error: unknown) => options.log.warn({ err: error }, `${options.name} failed`))
      .finally(() => {
        running = undefined;
        schedule();
      });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      abort = new AbortController();
      run();
    },
    kick() {
      run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      await running;
      await options.onStop?.();
    },
  };
}
