/**
 * How much each scenario does: the full run (~10 min on 2 cores for 1–5, 6 alone ~11 min, 7
 * alone ~7 min) or `--quick` (smoke, <60 s; 7 alone ≈ 20 s).
 */
export interface BenchConfig {
  quick: boolean;
  /** Scenarios 1–3. */
  records: number;
  batchSize: number;
  /** Fresh client processes per variant, run interleaved across variants. */
  processes: number;
  /** Timed passes per process, after one full warm-up pass. */
  repetitions: number;
  receiver: {
    /** Fresh receiver (or sink) + load generator processes per variant. */
    runs: number;
    warmupMillis: number;
    durationMillis: number;
    concurrency: number;
    /** "Moderate load" for the latency target: 100-record batches at this many requests/s. */
    moderateRequestsPerSecond: number;
  };
  outage: {
    recordsPerSecond: number;
    upMillis: number;
    downMillis: number;
    recoveryMillis: number;
  };
  /** Scenario 6 (opt-in): an outage longer than the backlog holds. */
  longOutage: {
    recordsPerSecond: number;
    upMillis: number;
    downMillis: number;
    recoveryMillis: number;
    /** The exporter's `maxBacklogBytes`, with compression off (bodies as plain JSON). */
    maxBacklogBytes: number;
  };
  /** Scenario 7: a `node:http` service logging 10 records per request under open-loop load. */
  service: {
    /** Fresh sink + service + load generator per run; runs interleaved over variants and rates. */
    runs: number;
    /**
     * Every run first takes this long at the highest of `requestsPerSecond`, so that V8 has
     * compiled the hot paths before any window: at the low rate, the rate's own warm-up (20 000
     * records) left the optimizing compilers running in the window (docs/performance.md,
     * scenario 7).
     */
    jitWarmupMillis: number;
    /** Then this long at the run's own rate, untimed. */
    warmupMillis: number;
    durationMillis: number;
    /** Request rates (10 records per request). */
    requestsPerSecond: number[];
    /** Most keep-alive connections the load generator opens. */
    connections: number;
    /** `monitorEventLoopDelay`'s sampling interval. */
    eldResolutionMillis: number;
  };
}

const MiB = 1024 * 1024;

export function benchConfig(quick: boolean): BenchConfig {
  if (quick) {
    return {
      quick,
      records: 4096,
      batchSize: 512,
      processes: 1,
      repetitions: 1,
      receiver: {
        runs: 1,
        warmupMillis: 200,
        durationMillis: 700,
        concurrency: 2,
        moderateRequestsPerSecond: 50,
      },
      outage: { recordsPerSecond: 1000, upMillis: 1500, downMillis: 2000, recoveryMillis: 2500 },
      // 10 000 records (≈ 4.5 MB of bodies) against a backlog of ≈ 4 batches of 512: drops happen.
      longOutage: {
        recordsPerSecond: 1000,
        upMillis: 2500,
        downMillis: 10_000,
        recoveryMillis: 5000,
        maxBacklogBytes: MiB,
      },
      service: {
        runs: 1,
        jitWarmupMillis: 200,
        warmupMillis: 200,
        durationMillis: 500,
        requestsPerSecond: [200, 2000],
        connections: 32,
        eldResolutionMillis: 1,
      },
    };
  }
  return {
    quick,
    records: 200_000,
    batchSize: 512,
    processes: 3,
    repetitions: 3,
    receiver: {
      runs: 3,
      warmupMillis: 2000,
      durationMillis: 6000,
      concurrency: 4,
      moderateRequestsPerSecond: 200,
    },
    outage: {
      recordsPerSecond: 5000,
      upMillis: 10_000,
      downMillis: 30_000,
      recoveryMillis: 20_000,
    },
    // 30 s up: the baseline is taken once the app's heap has settled, not during its warm-up.
    longOutage: {
      recordsPerSecond: 1000,
      upMillis: 30_000,
      downMillis: 600_000,
      recoveryMillis: 30_000,
      maxBacklogBytes: 16 * MiB,
    },
    // 9 variants × 2 rates × 5 runs of ≈ 13 s (process starts, 2 s at 2 000 requests/s, 2 s
    // warm-up at the rate, 8 s timed, flush): ≈ 19 minutes. Five, not three: with three, the
    // same code gave 0.56× and 0.67× for one ratio in two runs of the scenario.
    service: {
      runs: 5,
      jitWarmupMillis: 2000,
      warmupMillis: 2000,
      durationMillis: 8000,
      requestsPerSecond: [200, 2000],
      connections: 32,
      eldResolutionMillis: 1,
    },
  };
}
