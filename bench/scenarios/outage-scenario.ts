/**
 * Scenarios 5 and 6, an outage: the app logs at a steady rate to the receiver through a TCP
 * proxy; after `upMillis` the receiver process is stopped (SIGTERM: it finishes requests in
 * flight, so every acknowledgement the app got is stored) and the proxy resets connections
 * for `downMillis`; then a new receiver process on the same database file takes over. The
 * app's RSS growth is its peak after the outage began minus its median in the last 2 s
 * before it; every record emitted must be stored or dropped for a named reason. Scenario 6
 * makes the outage outgrow a small backlog and then checks, in the receiver's database, that
 * the records lost are the oldest of the outage (`drop-order.ts`).
 */
import { forkChild } from '../../test/harness/child-process.ts';
import { startTcpProxy } from '../../test/harness/tcp-proxy.ts';
import { countStoredRows, type DropOrder, dropOrder, readStoredNumbers } from '../drop-order.ts';
import type { OutageAppConfig, OutageAppResult } from '../outage-app.ts';
import { receiverFiles, startReceiver, storedRecords } from '../receiver-process.ts';
import { spread } from '../summary.ts';

const APP = new URL('../outage-app.ts', import.meta.url).pathname;
const MiB = 1024 * 1024;

export interface OutageOptions {
  recordsPerSecond: number;
  upMillis: number;
  downMillis: number;
  recoveryMillis: number;
  /** The exporter's `maxBacklogBytes`; its default (64 MiB) when absent. */
  maxBacklogBytes?: number;
  /** The exporter's compression; its default (gzip) when absent. */
  compression?: 'none' | 'gzip';
  /** Read the stored record numbers back and check that the oldest were dropped first. */
  checkDropOrder?: boolean;
}

export interface OutageResult {
  recordsPerSecond: number;
  upMillis: number;
  downMillis: number;
  recoveryMillis: number;
  /** Set when the scenario sets them (scenario 6); absent: the exporter's defaults. */
  maxBacklogBytes?: number;
  compression?: 'none' | 'gzip';
  emitted: number;
  stored: number;
  /** Dropped by `BatchLogRecordProcessor` because its queue (2 048) was full. */
  droppedByQueue: number;
  /** Dropped by the exporter, by reason (`retry_budget`: the export's time budget ran out). */
  droppedByExporter: Record<string, number>;
  /** emitted = stored + droppedByQueue + every exporter drop. */
  accountedFor: boolean;
  retried: number;
  baselineRssMiB: number;
  peakRssMiB: number;
  rssGrowthMiB: number;
  heapGrowthMiB: number;
  /** Growth of the memory outside the V8 heap (`arrayBuffers`), where queued bodies live. */
  arrayBuffersGrowthMiB?: number;
  /** Largest `getStats().backlog.bytes` seen. */
  peakBacklogMiB?: number;
  /** Scenario 6: which records are missing, from the receiver's database. */
  dropOrder?: DropOrder;
  /** RSS over time for the chart-less reader: one sample a second, or every 10 s (MiB). */
  rssTimeline: Array<{ atSeconds: number; phase: string; rssMiB: number }>;
}

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

export async function runOutage(
  options: OutageOptions,
  log: (line: string) => void,
): Promise<OutageResult> {
  const { recordsPerSecond, upMillis, downMillis, recoveryMillis } = options;
  const settings = {
    ...(options.maxBacklogBytes === undefined ? {} : { maxBacklogBytes: options.maxBacklogBytes }),
    ...(options.compression === undefined ? {} : { compression: options.compression }),
  };
  const files = receiverFiles();
  const proxy = await startTcpProxy();
  let receiver = await startReceiver(files);
  // The young generation is capped at 16 MiB per semi-space, as in `npm run soak`: V8 grows it
  // with the allocation rate (up to 2 × 64 MiB on this machine), which is RSS growth that says
  // nothing about what the exporter holds (docs/performance.md, scenario 5).
  const app = forkChild(
    APP,
    { baseUrl: proxy.url, recordsPerSecond, ...settings } satisfies OutageAppConfig,
    { execArgv: ['--max-semi-space-size=16'] },
  );
  try {
    proxy.setUpstream(Number(new URL(receiver.url).port));
    await app.next('ready', 30_000);
    await sleep(upMillis);

    app.send({ type: 'phase', phase: 'down' });
    // Stop first: requests in flight are answered through the proxy, so an acknowledgement
    // is never lost between a commit and the app (which would count it twice).
    await receiver.stop();
    proxy.setUpstream(undefined);
    // The receiver has closed the database: what it stored is what came before the outage.
    const storedBeforeOutage = options.checkDropOrder ? countStoredRows(files.db) : 0;
    log(`  receiver down for ${downMillis / 1000} s`);
    await sleep(downMillis);

    receiver = await startReceiver(files);
    proxy.setUpstream(Number(new URL(receiver.url).port));
    app.send({ type: 'phase', phase: 'recovered' });
    log('  receiver back');
    await sleep(recoveryMillis);

    app.send({ type: 'finish' });
    const result = await app.next<OutageAppResult>('result', 120_000);
    const stored = await storedRecords(receiver.url);
    const droppedByQueue = result.emitted - result.handedToExporter;
    const exporterDrops = Object.values(result.exporterDropped).reduce((a, b) => a + b, 0);
    const before = result.samples.filter((s) => s.phase === 'up' && s.atMillis >= upMillis - 2000);
    const after = result.samples.filter((s) => s.phase !== 'up');
    const baseline = spread(before.map((s) => s.rssBytes)).median;
    const peak = Math.max(...after.map((s) => s.rssBytes));
    const heapBaseline = spread(before.map((s) => s.heapUsedBytes)).median;
    const heapPeak = Math.max(...after.map((s) => s.heapUsedBytes));
    const arrayBuffersBaseline = spread(before.map((s) => s.arrayBuffersBytes)).median;
    const arrayBuffersPeak = Math.max(...after.map((s) => s.arrayBuffersBytes));
    const peakBacklog = Math.max(...result.samples.map((s) => s.backlogBytes));
    const order = options.checkDropOrder
      ? dropOrder({
          numbers: readStoredNumbers(files.db, result.emitted),
          storedBeforeOutage,
          emittedAtOutage: result.emittedAtPhase.down ?? Number.NaN,
          droppedByExporter: exporterDrops,
          droppedByQueue,
          // BatchLogRecordProcessor's default maxExportBatchSize, which the app keeps.
          batchRecords: 512,
        })
      : undefined;
    const step = upMillis + downMillis + recoveryMillis > 120_000 ? 100 : 10;
    return {
      recordsPerSecond,
      upMillis,
      downMillis,
      recoveryMillis,
      ...settings,
      emitted: result.emitted,
      stored,
      droppedByQueue,
      droppedByExporter: Object.fromEntries(
        Object.entries(result.exporterDropped).filter(([, count]) => count > 0),
      ),
      accountedFor:
        result.exported === stored && result.emitted === stored + droppedByQueue + exporterDrops,
      retried: result.retried,
      baselineRssMiB: baseline / MiB,
      peakRssMiB: peak / MiB,
      rssGrowthMiB: (peak - baseline) / MiB,
      heapGrowthMiB: (heapPeak - heapBaseline) / MiB,
      arrayBuffersGrowthMiB: (arrayBuffersPeak - arrayBuffersBaseline) / MiB,
      peakBacklogMiB: peakBacklog / MiB,
      ...(order ? { dropOrder: order } : {}),
      rssTimeline: result.samples
        .filter((_, i) => i % step === 0)
        .map((s) => ({
          atSeconds: Math.round(s.atMillis / 1000),
          phase: s.phase,
          rssMiB: Math.round((s.rssBytes / MiB) * 10) / 10,
        })),
    };
  } finally {
    await app.stop();
    await receiver.stop();
    await proxy.close();
    files.remove();
  }
}
