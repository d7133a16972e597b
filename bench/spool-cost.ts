/**
 * `node bench/spool-cost.ts [--processes N] [--records N]`: what the disk spool costs the
 * exporter, apart from the bench's scenarios (docs/exporter.md, "Disk spool"). Scenario 1's
 * setup (exporter only, batches of 512, gzip, a fresh sink and client process per run), with
 * and without `spoolDir`, runs interleaved; prints records/s and CPU per 1 000 records.
 * Needs a build (`npm run build`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { forkChild, killAll, killOnSignals } from '../test/harness/child-process.ts';
import type { ClientConfig, ClientResult } from './exporter-client.ts';
import { snapshotDist } from './package-under-test.ts';
import { spread } from './summary.ts';

// No child outlives an interrupted run.
killOnSignals();

const SINK = new URL('./sink-server.ts', import.meta.url).pathname;
const CLIENT = new URL('./exporter-client.ts', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    processes: { type: 'string', default: '3' },
    records: { type: 'string', default: '200000' },
  },
});
const processes = Number(values.processes);
const records = Number(values.records);

snapshotDist();
const results: Record<string, { rate: number[]; cpu: number[] }> = {
  memory: { rate: [], cpu: [] },
  spool: { rate: [], cpu: [] },
};
try {
  for (let p = 0; p < processes; p++) {
    for (const variant of ['memory', 'spool'] as const) {
      const dir =
        variant === 'spool' ? mkdtempSync(join(tmpdir(), 'reslog-spool-cost-')) : undefined;
      const sink = forkChild(SINK, {});
      try {
        const { url } = await sink.next<{ url: string }>('ready', 30_000);
        const config: ClientConfig = {
          mode: 'exporter',
          exporter: 'reslog',
          compression: 'gzip',
          records,
          batchSize: 512,
          repetitions: 3,
          sinkUrl: url,
          ...(dir ? { spoolDir: dir } : {}),
        };
        const client = forkChild(CLIENT, config);
        try {
          const result = await client.next<ClientResult>('result', 300_000);
          for (const pass of result.passes) {
            if (pass.sinkRecords !== records)
              throw new Error(`${variant}: sink got ${pass.sinkRecords}`);
            results[variant]?.rate.push((records / pass.elapsedMillis) * 1000);
            results[variant]?.cpu.push((pass.cpuMillis / records) * 1000);
          }
        } finally {
          await client.stop();
        }
      } finally {
        await sink.stop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  for (const [variant, { rate, cpu }] of Object.entries(results)) {
    const r = spread(rate);
    const c = spread(cpu);
    console.log(
      `${variant}: ${Math.round(r.median)} records/s (${Math.round(r.min)}–${Math.round(r.max)}), ` +
        `${c.median.toFixed(2)} CPU ms / 1k records (${c.min.toFixed(2)}–${c.max.toFixed(2)}), ${r.samples} passes`,
    );
  }
} finally {
  killAll();
}
