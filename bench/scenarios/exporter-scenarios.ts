/**
 * Scenarios 1–3 (exporter only, end to end, undici ceiling): every run is a fresh sink and a
 * fresh client process; runs are interleaved across variants (A B C A B C …) so that load
 * from elsewhere on the machine spreads over all of them instead of hitting one.
 */

import { forkChild } from '../../test/harness/child-process.ts';
import type { BenchConfig } from '../bench-config.ts';
import type { ClientConfig, ClientResult } from '../exporter-client.ts';
import { type Spread, spread } from '../summary.ts';

const SINK = new URL('../sink-server.ts', import.meta.url).pathname;
const CLIENT = new URL('../exporter-client.ts', import.meta.url).pathname;
const MiB = 1024 * 1024;

export interface ExporterVariant {
  scenario: 1 | 2 | 3;
  mode: ClientConfig['mode'];
  exporter: ClientConfig['exporter'];
  compression: ClientConfig['compression'];
}

export interface ExporterVariantResult extends ExporterVariant {
  id: string;
  /** Records per timed pass, and what the sink counted in each pass (always equal). */
  recordsPerPass: number;
  sinkRecordsPerPass: number[];
  recordsPerSecond: Spread;
  cpuMillisPer1k: Spread;
  wireBytesPerRecord: Spread;
  jsonBytesPerRecord: Spread;
  peakRssMiB: Spread;
  /** Peak RSS minus RSS after the records were built: what exporting cost in memory. */
  rssGrowthMiB: Spread;
}

export function variantId(v: ExporterVariant): string {
  return `${v.mode}/${v.exporter}/${v.compression}`;
}

export async function runExporterVariants(
  config: BenchConfig,
  variants: readonly ExporterVariant[],
  log: (line: string) => void,
): Promise<ExporterVariantResult[]> {
  const collected = variants.map(() => ({
    passes: [] as ClientResult['passes'],
    peak: [] as number[],
    growth: [] as number[],
  }));
  for (let p = 0; p < config.processes; p++) {
    for (const [index, variant] of variants.entries()) {
      const sink = forkChild(SINK, {});
      try {
        const { url } = await sink.next<{ url: string }>('ready', 30_000);
        const clientConfig: ClientConfig = {
          mode: variant.mode,
          exporter: variant.exporter,
          compression: variant.compression,
          records: config.records,
          batchSize: config.batchSize,
          repetitions: config.repetitions,
          sinkUrl: url,
        };
        const client = forkChild(CLIENT, clientConfig);
        try {
          const result = await client.next<ClientResult>('result', 300_000);
          const bucket = collected[index] as (typeof collected)[number];
          bucket.passes.push(...result.passes);
          bucket.peak.push(result.peakRssBytes / MiB);
          bucket.growth.push((result.peakRssBytes - result.baselineRssBytes) / MiB);
          const best = Math.max(
            ...result.passes.map((r) => (config.records / r.elapsedMillis) * 1000),
          );
          log(
            `  ${variantId(variant)} process ${p + 1}/${config.processes}: best ${Math.round(best)} rec/s`,
          );
        } finally {
          await client.stop();
        }
      } finally {
        await sink.stop();
      }
    }
  }
  return variants.map((variant, index) => {
    const { passes, peak, growth } = collected[index] as (typeof collected)[number];
    const perRecord = (value: (r: (typeof passes)[number]) => number) =>
      spread(passes.map((r) => value(r) / r.sinkRecords));
    return {
      ...variant,
      id: variantId(variant),
      recordsPerPass: config.records,
      sinkRecordsPerPass: passes.map((r) => r.sinkRecords),
      recordsPerSecond: spread(passes.map((r) => (config.records / r.elapsedMillis) * 1000)),
      cpuMillisPer1k: spread(passes.map((r) => (r.cpuMillis / config.records) * 1000)),
      wireBytesPerRecord: perRecord((r) => r.wireBytes),
      jsonBytesPerRecord: perRecord((r) => r.jsonBytes),
      peakRssMiB: spread(peak),
      rssGrowthMiB: spread(growth),
    };
  });
}
