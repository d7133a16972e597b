/**
 * Scenario 7, in a service: a `node:http` service (`service-app.ts`) logs 10 records per
 * request through the SDK and each exporter, under open-loop load from another process
 * (`service-load.ts`), with the sink in a third. Every run is a fresh sink, service and load
 * generator; runs are interleaved across variants and rates. The service's CPU and
 * event-loop delay are taken over the timed window only, after a warm-up at the highest rate
 * (so that JIT compilation is done before the window at every rate) and one at the run's rate.
 */

import { type ForkedChild, forkChild } from '../../test/harness/child-process.ts';
import type { BenchConfig } from '../bench-config.ts';
import type { ServiceAppConfig, ServiceAppResult, ServiceWindow } from '../service-app.ts';
import type { ServiceLoadConfig, ServiceLoadPhase } from '../service-load.ts';
import { type Spread, spread } from '../summary.ts';

const SINK = new URL('../sink-server.ts', import.meta.url).pathname;
const APP = new URL('../service-app.ts', import.meta.url).pathname;
const LOAD = new URL('../service-load.ts', import.meta.url).pathname;

export interface ServiceVariant {
  exporter: ServiceAppConfig['exporter'];
  /** The exporter's compression; null: no exporter that sends. */
  compression: 'auto' | 'gzip' | 'none' | null;
}

/**
 * Baseline, SDK cost, then OTLP's default and gzip, reslog's exporter behind the batch
 * processor (default auto: gzip, and none), and reslog's processor (the same two).
 */
export const SERVICE_VARIANTS: readonly ServiceVariant[] = [
  { exporter: 'none', compression: null },
  { exporter: 'noop', compression: null },
  { exporter: 'drop', compression: null },
  { exporter: 'otlp', compression: 'none' },
  { exporter: 'otlp', compression: 'gzip' },
  { exporter: 'reslog', compression: 'auto' },
  { exporter: 'reslog', compression: 'none' },
  { exporter: 'processor', compression: 'auto' },
  { exporter: 'processor', compression: 'none' },
];

export interface ServiceVariantResult extends ServiceVariant {
  id: string;
  requestsPerSecond: number;
  /** Records the service emitted per second of the timed window. */
  recordsPerSecond: Spread;
  /** Service CPU (user + system, every thread) per 1 000 records emitted in the window. */
  cpuMillisPer1k: Spread;
  /** The median above minus the no-export baseline's at the same rate (its range likewise). */
  addedCpuMillisPer1k: Spread;
  /** Of the CPU, the main thread's (the event loop's), per 1 000 records. */
  mainThreadCpuMillisPer1k: Spread;
  p50Millis: Spread;
  p99Millis: Spread;
  p999Millis: Spread;
  eldP99Millis: Spread;
  eldMaxMillis: Spread;
  /** How late the generator sent (p99): the floor under the latencies. */
  sendLagP99Millis: Spread;
  rssMiB: Spread;
  /** Per run, over the whole run: records emitted and records the sink counted. */
  emitted: number[];
  atSink: number[];
  /** Per run: records handed to the exporter (fewer: the processor's queue dropped some). */
  handedToExporter: number[];
  wireBytesPerRecord: Spread;
  failedRequests: number;
  /** emitted = at sink in every run (for variants that send). */
  delivered: boolean | null;
}

export function serviceId(v: ServiceVariant, requestsPerSecond: number): string {
  return `${v.exporter}/${v.compression ?? '-'}/${requestsPerSecond}`;
}

interface Run {
  window: ServiceWindow;
  timed: ServiceLoadPhase;
  result: ServiceAppResult;
  sink: { records: number; wireBytes: number };
}

/** `appExecArgv`: extra Node flags for the service only (bench/profile.ts: `--cpu-prof`). */
type ServiceRunConfig = BenchConfig['service'] & { appExecArgv?: string[] };

async function runOnce(
  config: ServiceRunConfig,
  variant: ServiceVariant,
  requestsPerSecond: number,
): Promise<Run> {
  const children: ForkedChild[] = [];
  try {
    const sink = forkChild(SINK, {});
    children.push(sink);
    const sinkUrl = (await sink.next<{ url: string }>('ready', 30_000)).url;
    const appConfig: ServiceAppConfig = {
      sinkUrl,
      exporter: variant.exporter,
      ...(variant.compression === null ? {} : { compression: variant.compression }),
      eldResolutionMillis: config.eldResolutionMillis,
    };
    const app = forkChild(APP, appConfig, { execArgv: config.appExecArgv ?? [] });
    children.push(app);
    const url = (await app.next<{ url: string }>('ready', 30_000)).url;
    const loadConfig: ServiceLoadConfig = {
      url,
      requestsPerSecond,
      connections: config.connections,
    };
    const load = forkChild(LOAD, loadConfig);
    children.push(load);
    await load.next('ready', 30_000);
    const phaseTimeout = (millis: number) => millis + 60_000;

    load.send({
      type: 'run',
      phase: 'jit-warmup',
      durationMillis: config.jitWarmupMillis,
      requestsPerSecond: Math.max(...config.requestsPerSecond),
    });
    await load.next('phase-done', phaseTimeout(config.jitWarmupMillis));
    load.send({ type: 'run', phase: 'warmup', durationMillis: config.warmupMillis });
    await load.next('phase-done', phaseTimeout(config.warmupMillis));
    app.send({ type: 'window-start' });
    await app.next('window-started', 10_000);
    load.send({ type: 'run', phase: 'timed', durationMillis: config.durationMillis });
    const timed = await load.next<ServiceLoadPhase>(
      'phase-done',
      phaseTimeout(config.durationMillis),
    );
    app.send({ type: 'window-end' });
    const window = await app.next<ServiceWindow>('window', 10_000);
    load.send({ type: 'close' });

    app.send({ type: 'finish' });
    const result = await app.next<ServiceAppResult>('result', 60_000);
    const response = await fetch(`${sinkUrl}/_bench/stats`);
    const stats = (await response.json()) as { records: number; wireBytes: number };
    return { window, timed, result, sink: stats };
  } finally {
    for (const child of children.reverse()) await child.stop();
  }
}

export async function runServiceVariants(
  config: ServiceRunConfig,
  variants: readonly ServiceVariant[],
  log: (line: string) => void,
): Promise<ServiceVariantResult[]> {
  const cells = config.requestsPerSecond.flatMap((rate) =>
    variants.map((variant) => ({ variant, rate, runs: [] as Run[] })),
  );
  for (let r = 0; r < config.runs; r++) {
    for (const cell of cells) {
      const run = await runOnce(config, cell.variant, cell.rate);
      cell.runs.push(run);
      const { window, timed } = run;
      log(
        `  ${serviceId(cell.variant, cell.rate)} run ${r + 1}/${config.runs}: ` +
          `CPU ${((window.cpuMillis / window.records) * 1000).toFixed(2)} ms/1k records ` +
          `(main thread ${((window.mainThreadCpuMillis / window.records) * 1000).toFixed(2)}), ` +
          `p99 ${timed.latencyMillis.p99.toFixed(2)} ms, ELD p99 ${window.eldMillis.p99.toFixed(2)} ms, ` +
          `sink ${run.sink.records}/${run.result.emitted}; threads ms/1k: ` +
          Object.entries(window.threadsCpuMillis)
            .filter(([, ms]) => ms > 0)
            .map(([name, ms]) => `${name} ${((ms / window.records) * 1000).toFixed(2)}`)
            .join(', '),
      );
    }
  }
  const cpuPer1k = (run: Run) => (run.window.cpuMillis / run.window.records) * 1000;
  return cells.map(({ variant, rate, runs }) => {
    const cpu = spread(runs.map(cpuPer1k));
    const baseline = cells.find((c) => c.rate === rate && c.variant.exporter === 'none');
    const base = spread(baseline?.runs.map(cpuPer1k) ?? []).median;
    const sends =
      variant.exporter !== 'none' && variant.exporter !== 'noop' && variant.exporter !== 'drop';
    return {
      ...variant,
      id: serviceId(variant, rate),
      requestsPerSecond: rate,
      recordsPerSecond: spread(runs.map((x) => (x.window.records / x.window.elapsedMillis) * 1000)),
      cpuMillisPer1k: cpu,
      mainThreadCpuMillisPer1k: spread(
        runs.map((x) => (x.window.mainThreadCpuMillis / x.window.records) * 1000),
      ),
      addedCpuMillisPer1k: {
        median: cpu.median - base,
        min: cpu.min - base,
        max: cpu.max - base,
        samples: cpu.samples,
      },
      p50Millis: spread(runs.map((x) => x.timed.latencyMillis.p50)),
      p99Millis: spread(runs.map((x) => x.timed.latencyMillis.p99)),
      p999Millis: spread(runs.map((x) => x.timed.latencyMillis.p999)),
      eldP99Millis: spread(runs.map((x) => x.window.eldMillis.p99)),
      eldMaxMillis: spread(runs.map((x) => x.window.eldMillis.max)),
      sendLagP99Millis: spread(runs.map((x) => x.timed.sendLagMillis.p99)),
      rssMiB: spread(runs.map((x) => x.window.rssMiB)),
      emitted: runs.map((x) => x.result.emitted),
      atSink: runs.map((x) => x.sink.records),
      handedToExporter: runs.map((x) => x.result.handedToExporter),
      wireBytesPerRecord: spread(
        sends ? runs.map((x) => x.sink.wireBytes / Math.max(1, x.sink.records)) : [],
      ),
      failedRequests: runs.reduce((sum, x) => sum + x.timed.failures, 0),
      delivered: sends ? runs.every((x) => x.sink.records === x.result.emitted) : null,
    };
  });
}
