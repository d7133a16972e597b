/**
 * The app of the spool rows of the fault matrix (docs/reliability.md): a process with a
 * `ResourceLogExporter` (usually with `spoolDir`) that exports the matrix's records, one
 * `export()` of `exportSize` records at a time, and tells the test what it may rely on.
 * Run with Node's type stripping: `node spooled-app.ts` with its config as JSON in
 * `RESLOG_APP_CONFIG` (see {@link AppConfig}).
 *
 * Lines on stdout, each written after the call that made it true returned:
 * `ready`, `start <i>` (before export i), `ack <i>` (its callback said SUCCESS), `failed <i>`,
 * `exported` (after the last export), `diag <text>` (the exporter's diagnostics),
 * `stats <json>` (on the `stats` command and before `done`), `crash <text>` (an exception or
 * rejection reached the app: never expected), `done` (after `shutdown()`).
 * Commands on stdin, one per line: `stats`, `finish` (flush, shut down, print stats, exit 0).
 */
import { writeSync } from 'node:fs';
import './load-sources.ts';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

export interface AppConfig {
  baseUrl: string;
  spoolDir?: string;
  /** Size of the whole stream: the records are `r0` … `r<records − 1>`. */
  records: number;
  exportSize: number;
  resources: number;
  /** First export to make (the ones before were made by an earlier process). @default 0 */
  fromExport?: number;
  /** Pause between exports, so that a kill lands mid-stream. @default 0 */
  paceMillis?: number;
  maxSpoolBytes?: number;
  maxBacklogBytes?: number;
  compression?: 'gzip' | 'none';
}

/**
 * Written straight to fd 1: `process.stdout` on a pipe may buffer, and a line still in a buffer
 * at SIGKILL would be lost, so the test would not know an export was acknowledged.
 */
const out = (line: string) => {
  const bytes = Buffer.from(`${line}\n`);
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(1, bytes, done);
    } catch (error) {
      if ((error as { code?: string }).code !== 'EAGAIN') throw error;
    }
  }
};
process.on('uncaughtException', (error) => {
  out(`crash ${String(error).replace(/\n/g, ' ')}`);
  process.exit(1);
});
process.on('unhandledRejection', (error) => {
  out(`crash ${String(error).replace(/\n/g, ' ')}`);
  process.exit(1);
});

const config = JSON.parse(process.env.RESLOG_APP_CONFIG ?? '{}') as AppConfig;
const { diag, DiagLogLevel } = await import('@opentelemetry/api');
const { ResourceLogExporter } = await import('../../../src/index.js');
const { API_KEY, OWNER, matrixRecords } = await import('./matrix.ts');

const line = (...args: unknown[]) => out(`diag ${args.map(String).join(' ').replace(/\n/g, ' ')}`);
diag.setLogger(
  {
    error: line,
    warn: line,
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  },
  { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
);

const exporter = new ResourceLogExporter({
  baseUrl: config.baseUrl,
  apiKey: API_KEY,
  username: OWNER,
  compression: config.compression ?? 'gzip',
  flushTimeoutMillis: 5_000,
  shutdownTimeoutMillis: 5_000,
  ...(config.spoolDir === undefined ? {} : { spoolDir: config.spoolDir }),
  ...(config.maxSpoolBytes === undefined ? {} : { maxSpoolBytes: config.maxSpoolBytes }),
  ...(config.maxBacklogBytes === undefined ? {} : { maxBacklogBytes: config.maxBacklogBytes }),
});
const printStats = () => out(`stats ${JSON.stringify(exporter.getStats())}`);

let finishing: Promise<void> | undefined;
/** Flushes until every backlog is empty (bounded), shuts down, reports, exits. */
const finish = () => {
  finishing ??= (async () => {
    for (let i = 0; i < 60 && exporter.getStats().backlog.batches > 0; i++) {
      await exporter.forceFlush();
    }
    await exporter.shutdown();
    printStats();
    out('done');
    process.exit(0);
  })();
  return finishing;
};

createInterface({ input: process.stdin }).on('line', (command) => {
  if (command === 'stats') printStats();
  else if (command === 'finish') void finish();
});

out('ready');
const all = matrixRecords(config.records, config.resources);
const exports = Math.ceil(config.records / config.exportSize);
for (let i = config.fromExport ?? 0; i < exports; i++) {
  const batch = all.slice(i * config.exportSize, (i + 1) * config.exportSize);
  out(`start ${i}`);
  const result = await new Promise<{ code: number }>((resolve) => exporter.export(batch, resolve));
  out(result.code === 0 ? `ack ${i}` : `failed ${i}`);
  if (config.paceMillis) await sleep(config.paceMillis);
}
out('exported');
