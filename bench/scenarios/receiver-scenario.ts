/**
 * Scenario 4, receiver ingest: a load generator process POSTs 100- and 1000-record batches to
 * the receiver (file database, fresh per run) and, as the ceiling, to the no-op sink that
 * only parses the same JSON. Each run is a fresh server and a fresh load generator.
 */

import { type ForkedChild, forkChild, processCpuMillis } from '../../test/harness/child-process.ts';
import type { BenchConfig } from '../bench-config.ts';
import type { LoadConfig, LoadResult } from '../load-generator.ts';
import { receiverFiles, startReceiver, storedRecords } from '../receiver-process.ts';
import { type Spread, spread } from '../summary.ts';

const SINK = new URL('../sink-server.ts', import.meta.url).pathname;
const LOAD = new URL('../load-generator.ts', import.meta.url).pathname;

export interface IngestVariant {
  target: 'receiver' | 'sink';
  batchRecords: 100 | 1000;
  /** `moderate`: fixed request rate, for the latency target; `max`: closed loop. */
  load: 'max' | 'moderate';
}

export interface IngestVariantResult extends IngestVariant {
  id: string;
  concurrency: number;
  requestsPerSecond: number | null;
  recordsPerSecond: Spread;
  p50Millis: Spread;
  p99Millis: Spread;
  /** Server CPU (from /proc) per 1 000 records over warm-up and timed phase. */
  serverCpuMillisPer1k: Spread;
  /** Records acknowledged over warm-up and timed phase, and (receiver) found stored after. */
  acceptedRecords: number[];
  storedRecords: number[];
  failures: Record<string, number>;
}

export function ingestId(v: IngestVariant): string {
  return `${v.target}/${v.batchRecords}/${v.load}`;
}

export async function runIngestVariants(
  config: BenchConfig,
  variants: readonly IngestVariant[],
  log: (line: string) => void,
): Promise<IngestVariantResult[]> {
  const runs = variants.map(() => [] as Array<LoadResult & { stored: number; serverCpu: number }>);
  for (let r = 0; r < config.receiver.runs; r++) {
    for (const [index, variant] of variants.entries()) {
      const files = receiverFiles();
      let sink: ForkedChild | undefined;
      let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
      try {
        let url: string;
        let pid: number | undefined;
        if (variant.target === 'receiver') {
          receiver = await startReceiver(files);
          url = receiver.url;
          pid = receiver.process.pid;
        } else {
          sink = forkChild(SINK, {});
          url = (await sink.next<{ url: string }>('ready', 30_000)).url;
          pid = sink.process.pid;
        }
        const loadConfig: LoadConfig = {
          url,
          batchRecords: variant.batchRecords,
          concurrency: config.receiver.concurrency,
          ...(variant.load === 'moderate'
            ? { requestsPerSecond: config.receiver.moderateRequestsPerSecond }
            : {}),
          warmupMillis: config.receiver.warmupMillis,
          durationMillis: config.receiver.durationMillis,
        };
        const cpuBefore = await processCpuMillis(pid);
        const load = forkChild(LOAD, loadConfig);
        let result: LoadResult;
        try {
          result = await load.next<LoadResult>('result', 120_000);
        } finally {
          await load.stop();
        }
        const serverCpu = (await processCpuMillis(pid)) - cpuBefore;
        const accepted = result.acceptedRecords + result.warmupAcceptedRecords;
        const stored = receiver ? await storedRecords(url) : accepted;
        if (stored !== accepted) {
          throw new Error(
            `${ingestId(variant)}: ${accepted} records acknowledged, ${stored} stored`,
          );
        }
        runs[index]?.push({ ...result, stored, serverCpu });
        log(
          `  ${ingestId(variant)} run ${r + 1}/${config.receiver.runs}: ` +
            `${Math.round((result.acceptedRecords / result.elapsedMillis) * 1000)} rec/s, ` +
            `p99 ${result.latencyMillis.p99.toFixed(1)} ms`,
        );
      } finally {
        await receiver?.stop();
        await sink?.stop();
        files.remove();
      }
    }
  }
  return variants.map((variant, index) => {
    const results = runs[index] ?? [];
    const failures: Record<string, number> = {};
    for (const result of results) {
      for (const [status, count] of Object.entries(result.failures)) {
        failures[status] = (failures[status] ?? 0) + count;
      }
    }
    return {
      ...variant,
      id: ingestId(variant),
      concurrency: config.receiver.concurrency,
      requestsPerSecond:
        variant.load === 'moderate' ? config.receiver.moderateRequestsPerSecond : null,
      recordsPerSecond: spread(results.map((x) => (x.acceptedRecords / x.elapsedMillis) * 1000)),
      p50Millis: spread(results.map((x) => x.latencyMillis.p50)),
      p99Millis: spread(results.map((x) => x.latencyMillis.p99)),
      serverCpuMillisPer1k: spread(
        results.map((x) => (x.serverCpu / (x.acceptedRecords + x.warmupAcceptedRecords)) * 1000),
      ),
      acceptedRecords: results.map((x) => x.acceptedRecords + x.warmupAcceptedRecords),
      storedRecords: results.map((x) => x.stored),
      failures,
    };
  });
}
