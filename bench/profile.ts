/**
 * CPU profiles of the bench's hot paths (`--cpu-prof`), summarised as the functions with the
 * most self time. Profiles land in bench/profiles/ (not committed). Needs `npm run build`.
 *
 *   node bench/profile.ts reslog|otlp|undici none|gzip exporter|e2e|undici
 *     one client process of scenarios 1–3 (records built, warm-up and timed passes)
 *   node bench/profile.ts receiver 100|1000
 *     the receiver CLI under scenario 4's closed-loop load (warm-up and timed phase)
 *   node bench/profile.ts service reslog|otlp|noop|none auto|gzip|none|- [requests/s]
 *     scenario 7's service under its open-loop load (default 2 000 requests/s), one run
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkChild, killAll, killOnSignals } from '../test/harness/child-process.ts';
import { benchConfig } from './bench-config.ts';
import type { ClientConfig, ClientResult } from './exporter-client.ts';
import type { LoadConfig, LoadResult } from './load-generator.ts';
import { receiverFiles, startReceiver } from './receiver-process.ts';
import { runServiceVariants, type ServiceVariant } from './scenarios/service-scenario.ts';

// No child outlives an interrupted run.
killOnSignals();

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const dir = fileURLToPath(new URL(`./profiles/${args.join('-')}-${Date.now()}`, import.meta.url));
mkdirSync(dir, { recursive: true });
const config = benchConfig(false);
const profileArgs = ['--cpu-prof', '--cpu-prof-dir', dir];

/** Self time per function, as [label, milliseconds], largest first. */
function selfTimes(profile: CpuProfile): Array<[string, number]> {
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

async function profileClient(): Promise<string> {
  const [exporter = 'reslog', compression = 'none', mode = 'exporter'] = args;
  const sink = forkChild(new URL('./sink-server.ts', import.meta.url).pathname, {});
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
  const client = forkChild(
    new URL('./exporter-client.ts', import.meta.url).pathname,
    clientConfig,
    {
      execArgv: profileArgs,
    },
  );
  const result = await client.next<ClientResult>('result', 300_000);
  await new Promise((resolve) => client.process.once('exit', resolve));
  await sink.stop();
  const perThousand = (ms: number) => ((ms / config.records) * 1000).toFixed(2);
  const rates = result.passes.map((p) => Math.round((config.records / p.elapsedMillis) * 1000));
  return (
    `${args.join(' ')}: ${rates.join(', ')} records/s; per 1k records: CPU ` +
    `${result.passes.map((p) => perThousand(p.cpuMillis)).join(', ')} ms, wall ` +
    `${result.passes.map((p) => perThousand(p.elapsedMillis)).join(', ')} ms`
  );
}

async function profileReceiver(): Promise<string> {
  const batchRecords = Number(args[1] ?? 1000) as 100 | 1000;
  const files = receiverFiles();
  const receiver = await startReceiver(files, profileArgs);
  try {
    const loadConfig: LoadConfig = {
      url: receiver.url,
      batchRecords,
      concurrency: config.receiver.concurrency,
      warmupMillis: config.receiver.warmupMillis,
      durationMillis: config.receiver.durationMillis,
    };
    const load = forkChild(new URL('./load-generator.ts', import.meta.url).pathname, loadConfig);
    const result = await load.next<LoadResult>('result', 120_000);
    await load.stop();
    return `receiver, ${batchRecords}-record batches: ${Math.round((result.acceptedRecords / result.elapsedMillis) * 1000)} records/s`;
  } finally {
    // SIGTERM: the CLI closes and exits, which writes the profile.
    await receiver.stop();
    files.remove();
  }
}

async function profileService(): Promise<string> {
  const [, exporter = 'reslog', compression = 'auto', rate = '2000'] = args;
  const variant: ServiceVariant = {
    exporter: exporter as ServiceVariant['exporter'],
    compression: compression === '-' ? null : (compression as ServiceVariant['compression']),
  };
  const [result] = await runServiceVariants(
    { ...config.service, runs: 1, requestsPerSecond: [Number(rate)], appExecArgv: profileArgs },
    [variant],
    (line) => console.error(line),
  );
  return `service ${result?.id}: CPU ${result?.cpuMillisPer1k.median.toFixed(2)} ms / 1k records, p99 ${result?.p99Millis.median.toFixed(1)} ms`;
}

try {
  const headline =
    args[0] === 'receiver'
      ? await profileReceiver()
      : args[0] === 'service'
        ? await profileService()
        : await profileClient();
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile in ${dir}`);
  const times = selfTimes(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
  const busy = times.filter(([label]) => label !== '(idle)').reduce((sum, [, ms]) => sum + ms, 0);
  console.log(headline);
  console.log(`profile ${join(dir, file)}`);
  console.log(`sampled, not idle: ${busy.toFixed(0)} ms (wall clock); top self time:`);
  for (const [label, ms] of times.filter(([l]) => l !== '(idle)').slice(0, 25)) {
    console.log(
      `${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(6)} ms  ${label}`,
    );
  }
} finally {
  killAll();
}
