import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { ExportableLogRecord } from '../../../src/exporter/otel-types.js';
import {
  type ExporterStats,
  ResourceLogExporter,
  type ResourceLogExporterOptions,
} from '../../../src/index.js';
import { type ReceiverProcess, startReceiverProcess } from '../../harness/receiver-process.ts';
import { type ProxyFault, startTcpProxy, type TcpProxy } from '../../harness/tcp-proxy.ts';
import { type Pipeline, processorPipeline } from '../../helpers/pipelines.ts';

export const OWNER = 'rel';
export const API_KEY = 'rel-matrix-key-7c1f0e5a9b2d4c68';
export const ADMIN_TOKEN = 'rel-admin-token-5d2a9c81e04b';
/** Resources of the matrix seed: all owned by `rel`. */
export const RESOURCES = [
  '11111111-1111-4111-8111-111111111111',
  '22222222-2222-4222-8222-222222222222',
  '33333333-3333-4333-8333-333333333333',
] as const;

export const SEED = {
  accounts: [{ username: OWNER, api_keys: [API_KEY] }],
  resources: RESOURCES.map((uuid, i) => ({ owner: OWNER, uuid, key: `rel-${i}` })),
};

/** What one row measured (one line of the matrix in docs/reliability.md). */
export interface RowResult {
  row: string;
  /** Front end the records went through (matrix rows; the app rows use the exporter). */
  pipeline?: FrontEnd;
  fault: string;
  sent: number;
  acknowledged: number;
  stored: number;
  duplicates: number;
  /** Stored records that were never sent (must be 0). */
  foreign: number;
  dropped: Record<string, number>;
  retried: number;
  /** Receiver fault rules fired plus proxy faults applied. */
  faultsFired: number;
  restarts: number;
  seconds: number;
  /** Stored per resource, for rows that reject one resource. */
  storedByResource: Record<string, number>;
  sentByResource: Record<string, number>;
  /** What the row saw besides the counts (e.g. the backlog at a kill), for the table. */
  notes?: string;
}

export interface RowContext {
  receiver(): ReceiverProcess;
  proxy: TcpProxy | undefined;
  /** Control-plane call on the current receiver. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** SIGKILL the receiver, wait `downMillis`, start it again on the same database file. */
  killAndRestart(downMillis: number): Promise<void>;
  stats(): ExporterStats;
  /** True once every export of the row has finished. */
  done(): boolean;
  /** Adds a line to the row's `notes`. */
  note(text: string): void;
}

/**
 * How records reach the delivery pipeline: `ResourceLogExporter.export()` (as
 * `BatchLogRecordProcessor` calls it) or `ResourceLogProcessor` (test/helpers/pipelines.ts).
 */
export type FrontEnd = 'exporter' | 'processor';

export interface RowSpec {
  /** Row name in the table; processor rows carry a `processor: ` prefix. */
  row: string;
  fault: string;
  /** Front end fed by the row's "batch processors", with the same options. @default 'exporter' */
  pipeline?: FrontEnd;
  records: number;
  /** Records per `export()` call (what a batch processor hands over). */
  exportSize: number;
  /** Records go round-robin to this many resources. @default 1 */
  resources?: number;
  receiverArgs?: readonly string[];
  /**
   * When set, a fault proxy sits between exporter and receiver and decides per request
   * (rows that restart the receiver need one: `() => ({ kind: 'pass' })`).
   */
  proxyFault?: (requestIndex: number) => ProxyFault;
  exporter?: Partial<ResourceLogExporterOptions>;
  /** Before the first record (e.g. receiver fault rules). */
  setup?(ctx: RowContext): Promise<void>;
  /** Runs beside the stream (bursts, kills); must return soon after `ctx.done()`. */
  during?(ctx: RowContext): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` records with unique ids (`message` = `r<n>`, `record.id` = n), round-robin over `resources`. */
export function matrixRecords(count: number, resources: number): ExportableLogRecord[] {
  const shared = RESOURCES.slice(0, resources).map((uuid) => ({
    attributes: { 'service.name': 'reliability', 'reslog.resource.uuid': uuid },
  }));
  return Array.from({ length: count }, (_, i) => ({
    hrTime: [1_795_234_527 + Math.floor(i / 1000), (i % 1000) * 1_000_000] as const,
    hrTimeObserved: [1_795_234_527, 0] as const,
    severityNumber: 9,
    severityText: 'INFO',
    body: `r${i}`,
    resource: shared[i % resources] as ExportableLogRecord['resource'],
    instrumentationScope: { name: 'reliability' },
    attributes: { 'record.id': i, 'payload.text': 'order accepted for customer 4711' },
  }));
}

function exportOnce(exporter: Pipeline, batch: ExportableLogRecord[]) {
  return new Promise<{ code: number }>((resolve) => exporter.export(batch, resolve));
}

/**
 * Runs one row of the fault matrix: a receiver CLI process with a file database (optionally
 * behind the fault proxy), a `ResourceLogExporter` (or `ResourceLogProcessor`, per
 * `spec.pipeline`) in this process fed `records` records with unique ids by two concurrent
 * "batch processors", then counts what the database holds.
 */
export async function runRow(spec: RowSpec): Promise<RowResult> {
  const dir = mkdtempSync(join(tmpdir(), 'reslog-reliability-'));
  const db = join(dir, 'receiver.db');
  const args = receiverArgs(dir, spec.receiverArgs);
  const resources = spec.resources ?? 1;
  let receiver: ReceiverProcess;
  try {
    receiver = await startReceiverProcess(args, { adminToken: ADMIN_TOKEN });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let restarts = 0;
  let proxy: TcpProxy | undefined;
  let exporter: Pipeline | undefined;
  let finished = false;
  const notes: string[] = [];
  const started = Date.now();
  try {
    if (spec.proxyFault) {
      proxy = await startTcpProxy({ upstreamPort: receiver.port, decide: spec.proxyFault });
    }
    // Behind a proxy the exporter keeps one URL while the receiver restarts on a new port.
    const baseUrl = proxy?.url ?? receiver.url;
    const options: ResourceLogExporterOptions = {
      baseUrl,
      apiKey: API_KEY,
      username: OWNER,
      compression: 'gzip',
      flushTimeoutMillis: 600_000,
      ...spec.exporter,
    };
    exporter =
      spec.pipeline === 'processor' ? processorPipeline(options) : new ResourceLogExporter(options);
    const live = exporter;
    const ctx: RowContext = {
      receiver: () => receiver,
      proxy,
      async control(method, path, body) {
        const response = await fetch(`${receiver.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${ADMIN_TOKEN}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
        return response.status === 204 ? undefined : response.json();
      },
      async killAndRestart(downMillis) {
        proxy?.setUpstream(undefined);
        await receiver.kill();
        await sleep(downMillis);
        receiver = await startReceiverProcess(args, { adminToken: ADMIN_TOKEN });
        restarts++;
        proxy?.setUpstream(receiver.port);
      },
      stats: () => live.getStats(),
      done: () => finished,
      note: (text) => notes.push(text),
    };
    await spec.setup?.(ctx);

    const all = matrixRecords(spec.records, resources);
    let next = 0;
    // export() returns once a batch is queued; waiting for the backlog to empty after each
    // one paces the stream at the receiver's speed, so faults land in the middle of it.
    const worker = async () => {
      while (next < all.length) {
        const batch = all.slice(next, next + spec.exportSize);
        next += batch.length;
        await exportOnce(live, batch);
        await live.forceFlush();
      }
    };
    const sideline = spec.during?.(ctx);
    await Promise.all([worker(), worker()]);
    finished = true;
    await sideline;

    let faultsFired = 0;
    const rules = (await ctx.control('GET', '/_receiver/faults')) as {
      faults: { fired: number }[];
    };
    for (const rule of rules.faults) faultsFired += rule.fired;
    if (proxy) {
      const counts = proxy.counts();
      faultsFired += Object.entries(counts)
        .filter(([kind]) => kind !== 'pass')
        .reduce((sum, [, n]) => sum + n, 0);
    }
    // Answers of the receiver's own rate limiter count as faults too (429 row).
    const metrics = await (await fetch(`${receiver.url}/metrics`)).text();
    for (const match of metrics.matchAll(
      /^reslog_receiver_requests_total\{[^}]*status="429"[^}]*\} (\d+)$/gm,
    )) {
      faultsFired += Number(match[1]);
    }
    await live.shutdown();
    const stats = live.getStats();
    await receiver.stop();

    const counted = countStored(db, spec.records);
    const sentByResource: Record<string, number> = {};
    for (let i = 0; i < spec.records; i++) {
      const uuid = RESOURCES[i % resources] as string;
      sentByResource[uuid] = (sentByResource[uuid] ?? 0) + 1;
    }
    return {
      row: spec.row,
      pipeline: spec.pipeline ?? 'exporter',
      fault: spec.fault,
      sent: spec.records,
      acknowledged: stats.exported,
      stored: counted.stored,
      duplicates: counted.duplicates,
      foreign: counted.foreign,
      dropped: Object.fromEntries(Object.entries(stats.dropped).filter(([, n]) => n > 0)),
      retried: stats.retried,
      faultsFired,
      restarts,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      storedByResource: counted.byResource,
      sentByResource,
      ...(notes.length > 0 ? { notes: notes.join('; ') } : {}),
    };
  } finally {
    finished = true;
    await exporter?.shutdown().catch(() => undefined);
    await proxy?.close();
    await receiver.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * CLI arguments of a matrix receiver whose file database (`receiver.db`) and seed live in
 * `dir`; rate limits are out of the way unless `extra` sets them.
 */
export function receiverArgs(dir: string, extra: readonly string[] = []): string[] {
  const seedFile = join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(SEED));
  return [
    '--db',
    join(dir, 'receiver.db'),
    '--seed',
    seedFile,
    '--log-level',
    'info',
    '--rate-limit',
    '100000',
    '--rate-burst',
    '100000',
    ...extra,
  ];
}

/**
 * Counts the stored records by id straight from the database file (after the receiver
 * stopped); `ids` holds the distinct ids of the matrix's records (`r<n>`) found.
 */
export function countStored(file: string, sent: number) {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const total = db
      .prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT message) AS d FROM logs')
      .get() as {
      n: number;
      d: number;
    };
    const foreign = db
      .prepare(
        `SELECT COUNT(*) AS n FROM logs
          WHERE message NOT GLOB 'r[0-9]*' OR CAST(substr(message, 2) AS INTEGER) >= ?`,
      )
      .get(sent) as { n: number };
    const byResource: Record<string, number> = {};
    for (const row of db
      .prepare(
        'SELECT r.uuid AS uuid, COUNT(*) AS n FROM logs l JOIN resources r ON r.id = l.resource_id GROUP BY r.uuid',
      )
      .all() as { uuid: string; n: number }[]) {
      byResource[row.uuid] = row.n;
    }
    const ids = new Set<number>();
    for (const row of db
      .prepare(`SELECT DISTINCT message AS m FROM logs WHERE message GLOB 'r[0-9]*'`)
      .all() as { m: string }[]) {
      ids.add(Number(row.m.slice(1)));
    }
    return { stored: total.n, duplicates: total.n - total.d, foreign: foreign.n, byResource, ids };
  } finally {
    db.close();
  }
}

/** The invariant of every row: stored = sent − stated drops, nothing twice, nothing foreign. */
export function droppedTotal(result: RowResult): number {
  return Object.values(result.dropped).reduce((sum, n) => sum + n, 0);
}

export function formatTable(results: readonly RowResult[]): string {
  const lines = [
    '| row | fault | sent | acknowledged | stored | duplicates | dropped (reason) | retries | faults fired | s |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const dropped =
      Object.entries(r.dropped)
        .map(([reason, n]) => `${n} ${reason}`)
        .join(', ') || '0';
    lines.push(
      `| ${r.row} | ${r.fault}${r.notes ? ` (${r.notes})` : ''} | ${r.sent} | ${r.acknowledged} | ${r.stored} | ${r.duplicates} | ${dropped} | ${r.retried} | ${r.faultsFired}${r.restarts ? ` (+${r.restarts} SIGKILL)` : ''} | ${r.seconds} |`,
    );
  }
  return lines.join('\n');
}
