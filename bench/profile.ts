/**
 * `node bench/profile.ts [reslog|otlp] [none|gzip] [exporter|e2e]`: runs one exporter-client
 * process of scenario 1 (or 2) under `--cpu-prof` against the sink and prints the functions
 * with the most self time (whole process: record building, warm-up and timed passes).
 * Profiles land in bench/profiles/ (not committed). Needs `npm run build` first.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchConfig } from './bench-config.ts';
import { forkBench, killAll } from './child-process.ts';
import type { ClientConfig, ClientResult } from './exporter-client.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [exporter = 'reslog', compression = 'none', mode = 'exporter'] = process.argv.slice(2);
const dir = fileURLToPath(
  new URL(`./profiles/${exporter}-${compression}-${mode}-${Date.now()}`, import.meta.url),
);
mkdirSync(dir, { recursive: true });
const config = benchConfig(false);

/** Self time per function, as [label, milliseconds], largest first. */
export function selfTimes(profile: CpuProfile): Array<[string, number]> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const where = frame.url ? `${basename(frame.url)}:${frame.lineNumber + 1}` : '';
    const label = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    totals.set(label, (totals.get(label) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

try {
  const sink = forkBench(new URL('./sink-server.ts', import.meta.url).pathname, {});
  const { url } = await sink.next<{ url: string }>('ready', 30_000);
  const clientConfig: ClientConfig = {
    mode: mode as ClientConfig['mode'],
    exporter: exporter as ClientConfig['exporter'],
    compression: compression as ClientConfig['compression'],
    records: config.records,
    batchSize: config.batchSize,
    repetitions: config.repetitions,
    sinkUrl: url,
  };
  const client = forkBench(
    new URL('./exporter-client.ts', import.meta.url).pathname,
    clientConfig,
    {
      execArgv: ['--cpu-prof', '--cpu-prof-dir', dir],
    },
  );
  const result = await client.next<ClientResult>('result', 300_000);
  await new Promise((resolve) => client.process.once('exit', resolve));
  await sink.stop();
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile in ${dir}`);
  const times = selfTimes(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
  const busy = times.filter(([label]) => label !== '(idle)').reduce((sum, [, ms]) => sum + ms, 0);
  const rates = result.passes.map((p) => Math.round((config.records / p.elapsedMillis) * 1000));
  const perThousand = (ms: number) => ((ms / config.records) * 1000).toFixed(2);
  console.log(`${exporter} ${compression} ${mode}: ${rates.join(', ')} records/s`);
  console.log(
    `per 1k records: CPU ${result.passes.map((p) => perThousand(p.cpuMillis)).join(', ')} ms, ` +
      `wall ${result.passes.map((p) => perThousand(p.elapsedMillis)).join(', ')} ms`,
  );
  console.log(`profile ${join(dir, file)}`);
  console.log(`sampled (wall clock, not idle) ${busy.toFixed(0)} ms; top self time:`);
  for (const [label, ms] of times.filter(([l]) => l !== '(idle)').slice(0, 25)) {
    console.log(
      `${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(6)} ms  ${label}`,
    );
  }
} finally {
  killAll();
}
