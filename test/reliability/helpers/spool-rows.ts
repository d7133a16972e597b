import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { decodeFrame } from '../../../src/exporter/spool/segment-format.js';
import type { ExporterStats } from '../../../src/index.js';
import { type ReceiverProcess, startReceiverProcess } from '../../harness/receiver-process.ts';
import { type ProxyFault, startTcpProxy, type TcpProxy } from '../../harness/tcp-proxy.ts';
import { type AppProcess, startApp } from './app-process.ts';
import { ADMIN_TOKEN, countStored, RESOURCES, type RowResult, receiverArgs } from './matrix.ts';
import type { AppConfig } from './spooled-app.ts';

/** A spool row's figures: a matrix row plus what only an app process can tell. */
export interface AppRowResult extends RowResult {
  /** Records of exports whose callback said SUCCESS (over both app processes). */
  exportAcknowledged: number;
  /** Records that had to be stored (every record but those of `unconfirmedIds`, `lostIds`) and were not. */
  missing: number[];
  /** Records of the export in progress at the kill: stored or not, either is right. */
  unconfirmedIds: number[];
  /** Records the test destroyed in the spool on purpose (corrupt-tail row). */
  lostIds: number[];
  /**
   * Records not stored although a newer record of the same resource was: 0 when whatever was
   * lost was the oldest of each resource.
   */
  lostOutOfOrder: number;
  /** Final stats of the last app process. */
  final: ExporterStats;
  /** Idempotent replays the receiver answered (from its request journal). */
  replays: number;
  /** Set when the row could not run here, with the reason. */
  skipped?: string;
}

interface Harness {
  readonly spoolDir: string;
  readonly proxy: TcpProxy;
  /** Connections through the proxy reset at once: the receiver is unreachable. */
  cutOff(): void;
  /** The proxy reaches the receiver again; `fault` decides per request from now on. */
  reconnect(fault?: ProxyFault): void;
  /** `fault` for every request from now on (the receiver stays reachable). */
  setFault(fault: ProxyFault): void;
  app(config: Partial<AppConfig>, options?: { fileSizeBlocks?: number }): Promise<AppProcess>;
}

interface Spec {
  row: string;
  fault: string;
  records: number;
  exportSize: number;
  /** Where the spool lives; a fresh temp directory by default. */
  spoolDir?: (dir: string) => string;
}

/**
 * Runs a spool row: the receiver CLI on its file database behind the fault proxy, app processes
 * (test/reliability/helpers/spooled-app.ts) driven by `scenario`, then the count in the
 * database. Every process is killed and every directory removed at the end, also on failure.
 */
async function runAppRow(
  spec: Spec,
  scenario: (h: Harness) => Promise<{
    final: ExporterStats;
    exportAcknowledged: number;
    unconfirmedIds?: number[];
    lostIds?: number[];
    restarts?: number;
    notes: string[];
  }>,
): Promise<AppRowResult> {
  const dir = mkdtempSync(join(tmpdir(), 'reslog-spool-row-'));
  const started = Date.now();
  const apps: AppProcess[] = [];
  let receiver: ReceiverProcess | undefined;
  let proxy: TcpProxy | undefined;
  try {
    const spoolDir = spec.spoolDir?.(dir) ?? join(dir, 'spool');
    receiver = await startReceiverProcess(receiverArgs(dir), { adminToken: ADMIN_TOKEN });
    const port = receiver.port;
    let fault: ProxyFault = { kind: 'pass' };
    proxy = await startTcpProxy({ upstreamPort: port, decide: () => fault });
    const live = proxy;
    const h: Harness = {
      spoolDir,
      proxy: live,
      cutOff: () => live.setUpstream(undefined),
      reconnect(next = { kind: 'pass' }) {
        fault = next;
        live.setUpstream(port);
      },
      setFault(next) {
        fault = next;
      },
      async app(config, options) {
        const app = await startApp(
          {
            baseUrl: live.url,
            spoolDir,
            records: spec.records,
            exportSize: spec.exportSize,
            resources: RESOURCES.length,
            ...config,
          },
          options,
        );
        apps.push(app);
        return app;
      },
    };
    const outcome = await scenario(h);
    const journal = (await (
      await fetch(`${receiver.url}/_receiver/requests?limit=1000`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).json()) as { requests?: { replayed: boolean }[] } | { replayed: boolean }[];
    const entries = Array.isArray(journal) ? journal : (journal.requests ?? []);
    const replays = entries.filter((entry) => entry.replayed).length;
    await receiver.stop();
    const counted = countStored(join(dir, 'receiver.db'), spec.records);
    const unconfirmed = new Set(outcome.unconfirmedIds ?? []);
    const lost = new Set(outcome.lostIds ?? []);
    const missing: number[] = [];
    for (let id = 0; id < spec.records; id++) {
      if (!counted.ids.has(id) && !unconfirmed.has(id) && !lost.has(id)) missing.push(id);
    }
    const oldestStored = new Map<number, number>();
    for (const id of counted.ids) {
      const r = id % RESOURCES.length;
      oldestStored.set(r, Math.min(oldestStored.get(r) ?? id, id));
    }
    let lostOutOfOrder = 0;
    for (let id = 0; id < spec.records; id++) {
      if (!counted.ids.has(id) && id > (oldestStored.get(id % RESOURCES.length) ?? id)) {
        lostOutOfOrder++;
      }
    }
    const sentByResource: Record<string, number> = {};
    for (let i = 0; i < spec.records; i++) {
      const uuid = RESOURCES[i % RESOURCES.length] as string;
      sentByResource[uuid] = (sentByResource[uuid] ?? 0) + 1;
    }
    const kills = outcome.restarts ?? 0;
    return {
      row: spec.row,
      fault: spec.fault,
      sent: spec.records,
      acknowledged: outcome.exportAcknowledged,
      exportAcknowledged: outcome.exportAcknowledged,
      stored: counted.stored,
      duplicates: counted.duplicates,
      foreign: counted.foreign,
      dropped: Object.fromEntries(Object.entries(outcome.final.dropped).filter(([, n]) => n > 0)),
      retried: outcome.final.retried,
      faultsFired: Object.entries(live.counts())
        .filter(([kind]) => kind !== 'pass')
        .reduce((sum, [, n]) => sum + n, 0),
      restarts: kills,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      storedByResource: counted.byResource,
      sentByResource,
      notes: [
        ...outcome.notes,
        ...(replays > 0 ? [`the receiver answered ${replays} idempotent replays`] : []),
      ].join('; '),
      missing,
      lostOutOfOrder,
      unconfirmedIds: [...unconfirmed],
      lostIds: [...lost],
      final: outcome.final,
      replays,
    };
  } finally {
    for (const app of apps) await app.kill();
    await proxy?.close();
    await receiver?.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

const exportsOf = (records: number, exportSize: number) => Math.ceil(records / exportSize);
/** Record ids of export `i`. */
const idsOf = (i: number, records: number, exportSize: number) => {
  const ids: number[] = [];
  for (let id = i * exportSize; id < Math.min(records, (i + 1) * exportSize); id++) ids.push(id);
  return ids;
};
const recordsOf = (exports: Iterable<number>, records: number, exportSize: number) =>
  [...exports].reduce((sum, i) => sum + idsOf(i, records, exportSize).length, 0);

/** Bytes of every segment file under the spool directory. */
export function segmentFiles(spoolDir: string): { path: string; bytes: number }[] {
  return (readdirSync(spoolDir, { recursive: true }) as string[])
    .filter((name) => /(^|\/)seg-\d+\.log$/.test(name))
    .sort()
    .map((name) => ({ path: join(spoolDir, name), bytes: statSync(join(spoolDir, name)).size }));
}

/**
 * Rows 1 and 1b: the app, with a spool, is SIGKILLed at a random moment mid-stream; a new app
 * over the same directory replays what it left and exports the rest.
 * `slow`: the receiver is up and commits every batch, but its answer is held back `slow` ms,
 * so batches are committed and still in the spool at the kill (replayed idempotently).
 */
export function appKillAndReplay(spec: Spec & { paceMillis: number; slow?: number }) {
  return runAppRow(spec, async (h) => {
    const { records, exportSize, paceMillis } = spec;
    const total = exportsOf(records, exportSize);
    if (spec.slow) h.setFault({ kind: 'delay-reply', millis: spec.slow });
    else h.cutOff();
    const first = await h.app({ paceMillis });
    // Between 20 % and 80 % of the exports, plus up to one pause.
    const killAt = Math.floor(total * (0.2 + 0.6 * Math.random()));
    await first.until(`ack ${killAt}`, () => first.acked.size > killAt);
    await sleep(Math.random() * paceMillis);
    await first.kill();
    if (first.acked.size >= total) throw new Error('the app finished before the kill');
    const spooled = segmentFiles(h.spoolDir).reduce((sum, f) => sum + f.bytes, 0);
    if (spooled === 0) throw new Error('the killed app left no spool');
    const inProgress = [...first.started].filter((i) => !first.acked.has(i));
    const unconfirmedIds = inProgress.flatMap((i) => idsOf(i, records, exportSize));

    h.reconnect();
    const fromExport = Math.max(...first.started) + 1;
    const second = await h.app({ fromExport });
    await second.until(
      'exported',
      () => second.acked.size + second.failed.size >= total - fromExport,
    );
    const final = await second.finish();
    const newRecords = recordsOf(second.acked, records, exportSize);
    return {
      final,
      exportAcknowledged: recordsOf(first.acked, records, exportSize) + newRecords,
      unconfirmedIds,
      restarts: 1,
      notes: [
        `killed after ${first.acked.size} of ${total} exports acknowledged (aimed at ${killAt + 1}), ${spooled} B of segments left`,
        `${unconfirmedIds.length} records of an export in progress at the kill`,
        `the new app replayed ${final.exported - newRecords} records from ${final.spool?.adoptedSegments} adopted segment(s)`,
      ],
    };
  });
}

/** Every batch frame of the spool's segments, in the order recovery reads them. */
function batchFrames(spoolDir: string) {
  const frames: {
    path: string;
    offset: number;
    bytes: number;
    bodyOffset: number;
    bodyLength: number;
    gzipped: boolean;
    last: boolean;
  }[] = [];
  const files = segmentFiles(spoolDir);
  for (const [n, file] of files.entries()) {
    const data = readFileSync(file.path);
    let offset = 0;
    while (offset < data.length) {
      const read = decodeFrame(data, offset);
      if (!read.ok) throw new Error(`${file.path}: a damaged frame before the test damaged any`);
      if (read.frame.kind === 'batch') {
        frames.push({
          path: file.path,
          offset,
          bytes: read.bytes,
          bodyOffset: read.frame.bodyOffset,
          bodyLength: read.frame.bodyLength,
          gzipped: read.frame.meta.gzipped,
          last: n === files.length - 1 && offset + read.bytes === data.length,
        });
      }
      offset += read.bytes;
    }
  }
  return frames;
}

/** The record ids in a spooled frame's body. */
function idsInFrame(frame: ReturnType<typeof batchFrames>[number]): number[] {
  const data = readFileSync(frame.path);
  const start = frame.offset + frame.bodyOffset;
  const raw = data.subarray(start, start + frame.bodyLength);
  const json = (frame.gzipped ? gunzipSync(raw) : raw).toString('utf8');
  return [...json.matchAll(/"message":"r(\d+)"/g)].map((m) => Number(m[1]));
}

/**
 * Row 2: the app is SIGKILLed with everything in its spool (the receiver unreachable); the test
 * tears the last frame in half and flips a byte in the body of a frame in the middle; a new
 * app recovers the rest.
 */
export function corruptSpoolTail(spec: Spec) {
  return runAppRow(spec, async (h) => {
    const total = exportsOf(spec.records, spec.exportSize);
    h.cutOff();
    const first = await h.app({});
    await first.until('exported', () => first.acked.size >= total);
    await first.kill();
    const frames = batchFrames(h.spoolDir);
    const last = frames.at(-1);
    if (!last?.last || frames.length < 3)
      throw new Error(`unexpected spool: ${frames.length} frames`);
    const middle = frames[Math.floor(frames.length / 2)] as (typeof frames)[number];
    const lostIds = [...idsInFrame(middle), ...idsInFrame(last)];
    const data = readFileSync(middle.path);
    const at = middle.offset + middle.bodyOffset + Math.floor(middle.bodyLength / 2);
    data[at] = (data[at] as number) ^ 0xff;
    writeFileSync(middle.path, data);
    truncateSync(last.path, last.offset + Math.floor(last.bytes / 2));

    h.reconnect();
    const second = await h.app({ fromExport: total });
    const final = await second.finish();
    return {
      final,
      exportAcknowledged: recordsOf(first.acked, spec.records, spec.exportSize),
      lostIds,
      restarts: 1,
      notes: [
        `${frames.length} batch frames spooled; 1 torn in half, 1 with a flipped byte: ${lostIds.length} records`,
        `recovery counted ${final.spool?.corruptFrames} corrupt frames`,
      ],
    };
  });
}

/** Row 3a: a small `maxSpoolBytes` during an outage: the oldest batches are dropped. */
export function smallSpoolBound(spec: Spec & { maxSpoolBytes: number }) {
  return runAppRow(spec, async (h) => {
    const total = exportsOf(spec.records, spec.exportSize);
    h.cutOff();
    const app = await h.app({ maxSpoolBytes: spec.maxSpoolBytes });
    await app.until('exported', () => app.acked.size + app.failed.size >= total);
    const during = await app.stats();
    h.reconnect();
    const final = await app.finish();
    return {
      final,
      exportAcknowledged: recordsOf(app.acked, spec.records, spec.exportSize),
      notes: [
        `spool ${during.spool?.bytes} B of ${spec.maxSpoolBytes} at the end of the outage`,
        `${app.diag.length} diagnostic line(s)`,
      ],
    };
  });
}

/**
 * Row 3b: the spool's disk fills up during an outage: a 64 KiB tmpfs (when this process may
 * mount one) or a 32 KiB file-size limit (RLIMIT_FSIZE). The exporter keeps the batches in
 * memory and says so once.
 */
export function spoolDiskFull(spec: Spec & { how: 'tmpfs' | 'ulimit' }) {
  let mounted: string | undefined;
  let skipped: string | undefined;
  const spoolDir = (dir: string) => {
    const mountPoint = join(dir, 'spool');
    mkdirSync(mountPoint);
    if (spec.how === 'tmpfs') {
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint], {
          stdio: 'pipe',
        });
        mounted = mountPoint;
      } catch (error) {
        skipped = `cannot mount a tmpfs here: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}`;
      }
    }
    return mountPoint;
  };
  const unmount = () => {
    // Lazy: a process the row failed to end must not keep the mount (and the temp dir) busy.
    if (mounted) execFileSync('umount', ['-l', mounted], { stdio: 'pipe' });
    mounted = undefined;
  };
  return runAppRow({ ...spec, spoolDir }, async (h) => {
    try {
      if (skipped) {
        return {
          final: { dropped: {} } as ExporterStats,
          exportAcknowledged: 0,
          notes: [`skipped: ${skipped}`],
        };
      }
      const total = exportsOf(spec.records, spec.exportSize);
      h.cutOff();
      const app = await h.app({}, spec.how === 'ulimit' ? { fileSizeBlocks: 32 } : {});
      await app.until('exported', () => app.acked.size + app.failed.size >= total);
      const during = await app.stats();
      h.reconnect();
      const final = await app.finish();
      const said = app.diag.find((line) => /spool/.test(line)) ?? '(none)';
      return {
        final,
        exportAcknowledged: recordsOf(app.acked, spec.records, spec.exportSize),
        notes: [
          `${during.spool?.writeErrors} spool writes failed, ${during.backlog.batches} batches queued in memory at the end of the outage`,
          `diagnostic: ${said}`,
          ...(app.crashes.length > 0 ? [`CRASH: ${app.crashes.join(' | ')}`] : []),
        ],
      };
    } finally {
      unmount();
    }
  }).then((result) => (skipped ? { ...result, skipped } : result));
}
