/**
 * Bounded soak test (docs/reliability.md, "Soak"): an app with the OpenTelemetry logs SDK and
 * ResourceLogExporter (from dist/) ships records with unique ids to the receiver CLI (file
 * database) at ~50 % of the capacity measured first, for `--minutes N`. Pass criteria: app and
 * receiver RSS grow < 10 % after warm-up, throughput steady (coefficient of variation < 0.1),
 * zero loss and zero duplicates. Exits 1 when a criterion fails.
 *
 *   npm run soak -- --minutes 10 [--out results.json] [--rate N]
 *
 * Both processes run with V8's young generation pinned ({@link YOUNG_GENERATION}; the npm
 * script passes the same flags to this process): by default V8 grows it in steps, up to
 * 2 × 64 MiB on this machine, whenever the allocation rate asks for it, which shows up as RSS
 * growth with a flat heap — memory kept, not leaked (docs/reliability.md, "Soak").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics } from 'node:v8';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  type LogRecordExporter,
} from '@opentelemetry/sdk-logs';
import { ResourceLogExporter } from '../dist/index.js';
import {
  killAllReceivers,
  type ReceiverProcess,
  startReceiverProcess,
} from '../test/harness/receiver-process.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string' },
    out: { type: 'string' },
  },
});
/** Semi-spaces of 16 MiB from the start: the young generation never resizes. */
const YOUNG_GENERATION = ['--min-semi-space-size=16', '--max-semi-space-size=16'];
if (!YOUNG_GENERATION.every((flag) => process.execArgv.includes(flag))) {
  throw new Error(`run the soak through \`npm run soak\` (node ${YOUNG_GENERATION.join(' ')})`);
}
const minutes = Number(values.minutes);
if (!(minutes > 0 && minutes <= 120)) throw new Error('--minutes must be in (0, 120]');
const durationMillis = minutes * 60_000;
// Short runs warm up for half their time (V8 and SQLite settle in steps in the first ~30 s).
const warmupMillis = Math.min(60_000, durationMillis / 2);
const sampleMillis = minutes < 3 ? 5_000 : 10_000;

const OWNER = 'soak';
const KEY = 'soak-key-3e8b1c07d9a24f56';
const ADMIN = 'soak-admin-9f2d4b6a1c3e';
const UUID = '88888888-8888-4888-8888-888888888888';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

const dir = mkdtempSync(join(tmpdir(), 'reslog-soak-'));
const db = join(dir, 'receiver.db');
writeFileSync(
  join(dir, 'seed.json'),
  JSON.stringify({
    accounts: [{ username: OWNER, api_keys: [KEY] }],
    resources: [{ owner: OWNER, uuid: UUID, key: 'soak' }],
  }),
);
const cleanup = () => {
  killAllReceivers();
  rmSync(dir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    cleanup();
    process.exit(130);
  });
}

function receiverRss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match?.[1] ? Number(match[1]) * 1024 : 0;
}

/** The receiver's V8 heap in use, from its `/metrics`. */
async function receiverHeapUsed(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\d+)$/m.exec(text)?.[1] ?? 0);
}

const newSpaceBytes = () =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function main() {
  const receiver: ReceiverProcess = await startReceiverProcess(
    [
      '--db',
      db,
      '--seed',
      join(dir, 'seed.json'),
      '--log-level',
      'warn',
      '--rate-limit',
      '1000000',
      '--rate-burst',
      '1000000',
    ],
    { adminToken: ADMIN, nodeArgs: YOUNG_GENERATION },
  );
  const exporter = new ResourceLogExporter({
    baseUrl: receiver.url,
    apiKey: KEY,
    username: OWNER,
    resource: UUID,
  });
  // The slowest export() of each sample interval: a stall (a slow disk, a busy machine) makes
  // the SDK's queue and both heaps peak, and RSS keeps such a peak; this shows when one came.
  let slowestExportMillis = 0;
  const timedExporter: LogRecordExporter = {
    export(records, done) {
      const started = performance.now();
      exporter.export(records, (result) => {
        slowestExportMillis = Math.max(slowestExportMillis, performance.now() - started);
        done(result);
      });
    },
    forceFlush: () => exporter.forceFlush(),
    shutdown: () => exporter.shutdown(),
  };
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'soak-app' }),
    processors: [
      new BatchLogRecordProcessor({
        exporter: timedExporter,
        maxQueueSize: 20_000,
        maxExportBatchSize: 1_000,
        scheduledDelayMillis: 200,
      }),
    ],
  });
  const logger = provider.getLogger('soak');
  let emitted = 0;
  const emit = (n: number) => {
    for (let i = 0; i < n; i++) {
      logger.emit({
        severityNumber: 9,
        body: `s${emitted}`,
        attributes: { 'record.id': emitted, 'http.route': '/checkout', 'order.total': 42.5 },
      });
      emitted++;
    }
  };

  // 1. Capacity: bursts of 5 000 records, each flushed, for ~10 s (5 s for short runs).
  const calibrateMillis = minutes < 3 ? 5_000 : 10_000;
  const calibrationStart = Date.now();
  while (Date.now() - calibrationStart < calibrateMillis) {
    emit(5_000);
    await provider.forceFlush();
    await exporter.forceFlush();
  }
  const capacity = emitted / ((Date.now() - calibrationStart) / 1000);
  const rate = values.rate ? Number(values.rate) : Math.round(capacity / 2);
  console.error(
    `soak: capacity ${Math.round(capacity)} records/s, soaking at ${rate} records/s for ${minutes} min (warm-up ${warmupMillis / 1000} s)`,
  );

  // 2. Soak: paced emission every 50 ms, sampled every `sampleMillis`.
  const samples: {
    t: number;
    acknowledged: number;
    appRss: number;
    /** V8 heap and off-heap (Buffers, zlib) of the app, to tell a leak from allocator growth. */
    appHeapUsed: number;
    appExternal: number;
    receiverRss: number;
    receiverHeapUsed: number;
    slowestExportMillis: number;
    rate: number;
  }[] = [];
  const youngGenerationAtStart = newSpaceBytes();
  const start = Date.now();
  const tickMillis = 50;
  let due = 0;
  let lastSample = { at: start, acknowledged: exporter.getStats().exported };
  let nextSample = start + sampleMillis;
  while (Date.now() - start < durationMillis) {
    const elapsed = Date.now() - start;
    const target = Math.floor((rate * elapsed) / 1000);
    emit(Math.max(0, target - due));
    due = Math.max(due, target);
    if (Date.now() >= nextSample) {
      const now = Date.now();
      const acknowledged = exporter.getStats().exported;
      samples.push({
        t: Math.round((now - start) / 1000),
        acknowledged,
        appRss: process.memoryUsage().rss,
        appHeapUsed: process.memoryUsage().heapUsed,
        appExternal: process.memoryUsage().external,
        receiverRss: receiverRss(receiver.pid),
        receiverHeapUsed: await receiverHeapUsed(receiver.url),
        slowestExportMillis: Math.round(slowestExportMillis),
        rate: ((acknowledged - lastSample.acknowledged) * 1000) / (now - lastSample.at),
      });
      slowestExportMillis = 0;
      lastSample = { at: now, acknowledged };
      nextSample += sampleMillis;
    }
    await sleep(tickMillis);
  }

  // 3. Drain and count.
  await provider.forceFlush();
  await provider.shutdown();
  const stats = exporter.getStats();
  await receiver.stop();
  const database = new DatabaseSync(db, { readOnly: true });
  const counted = database
    .prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT message) AS d FROM logs')
    .get() as { n: number; d: number };
  database.close();

  const steady = samples.filter((s) => s.t * 1000 > warmupMillis);
  const rates = steady.map((s) => s.rate);
  const mean = rates.reduce((a, b) => a + b, 0) / Math.max(1, rates.length);
  const sd = Math.sqrt(rates.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, rates.length));
  const head = steady.slice(0, 3);
  const tail = steady.slice(-3);
  const growth = (pick: (s: (typeof samples)[number]) => number) =>
    median(tail.map(pick)) / median(head.map(pick)) - 1;
  const dropped = Object.values(stats.dropped).reduce((a, b) => a + b, 0);
  const result = {
    minutes,
    capacityPerSecond: Math.round(capacity),
    ratePerSecond: rate,
    emitted,
    acknowledged: stats.exported,
    stored: counted.n,
    duplicates: counted.n - counted.d,
    dropped: stats.dropped,
    retried: stats.retried,
    throughputMean: Math.round(mean),
    throughputCv: Math.round((sd / mean) * 1000) / 1000,
    appRssMiB: {
      afterWarmup: mib(median(head.map((s) => s.appRss))),
      end: mib(median(tail.map((s) => s.appRss))),
    },
    receiverRssMiB: {
      afterWarmup: mib(median(head.map((s) => s.receiverRss))),
      end: mib(median(tail.map((s) => s.receiverRss))),
    },
    /** V8's new space of the app at the start of the soak and at its end: pinned, so equal. */
    appYoungGenerationMiB: { start: mib(youngGenerationAtStart), end: mib(newSpaceBytes()) },
    appRssGrowth: Math.round(growth((s) => s.appRss) * 1000) / 1000,
    receiverRssGrowth: Math.round(growth((s) => s.receiverRss) * 1000) / 1000,
    samples: samples.map((s) => ({
      ...s,
      appRss: mib(s.appRss),
      appHeapUsed: mib(s.appHeapUsed),
      appExternal: mib(s.appExternal),
      receiverRss: mib(s.receiverRss),
      receiverHeapUsed: mib(s.receiverHeapUsed),
      rate: Math.round(s.rate),
    })),
  };
  const checks = {
    'zero loss (stored = emitted, nothing dropped)': counted.n === emitted && dropped === 0,
    'zero duplicates': result.duplicates === 0,
    'throughput CV < 0.1': result.throughputCv < 0.1,
    'app RSS growth < 10 %': result.appRssGrowth < 0.1,
    'receiver RSS growth < 10 %': result.receiverRssGrowth < 0.1,
  };
  console.log(JSON.stringify({ ...result, samples: undefined, checks }, null, 2));
  if (values.out) writeFileSync(values.out, `${JSON.stringify({ ...result, checks }, null, 2)}\n`);
  const failed = Object.entries(checks).filter(([, ok]) => !ok);
  for (const [name] of failed) console.error(`soak: FAILED ${name}`);
  return failed.length === 0;
}

main().then(
  (ok) => {
    cleanup();
    process.exit(ok ? 0 : 1);
  },
  (error: unknown) => {
    console.error('soak: error:', error);
    cleanup();
    process.exit(1);
  },
);
