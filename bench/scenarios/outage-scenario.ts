/**
 * Scenario 5, outage memory: the app logs at a steady rate to the receiver through a TCP
 * proxy; after `upMillis` the receiver process is stopped (SIGTERM: it finishes requests in
 * flight, so every acknowledgement the app got is stored) and the proxy resets connections
 * for `downMillis`; then a new receiver process on the same database file takes over. The
 * app's RSS growth is its peak after the outage began minus its median in the last 2 s
 * before it; every record emitted must be stored or dropped for a named reason.
 */
import type { BenchConfig } from '../bench-config.ts';
import { forkBench } from '../child-process.ts';
import type { OutageAppConfig, OutageAppResult } from '../outage-app.ts';
import { receiverFiles, startReceiver, storedRecords } from '../receiver-process.ts';
import { spread } from '../summary.ts';
import { startTcpProxy } from '../tcp-proxy.ts';

const APP = new URL('../outage-app.ts', import.meta.url).pathname;
const MiB = 1024 * 1024;

export interface OutageResult {
  recordsPerSecond: number;
  upMillis: number;
  downMillis: number;
  recoveryMillis: number;
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
  /** RSS over time for the chart-less reader: one sample a second (MiB). */
  rssTimeline: Array<{ atSeconds: number; phase: string; rssMiB: number }>;
}

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

export async function runOutage(
  config: BenchConfig,
  log: (line: string) => void,
): Promise<OutageResult> {
  const { recordsPerSecond, upMillis, downMillis, recoveryMillis } = config.outage;
  const files = receiverFiles();
  const proxy = await startTcpProxy();
  let receiver = await startReceiver(files);
  // The young generation is capped at 16 MiB per semi-space, as in `npm run soak`: V8 grows it
  // with the allocation rate (up to 2 × 64 MiB on this machine), which is RSS growth that says
  // nothing about what the exporter holds (docs/performance.md, scenario 5).
  const app = forkBench(APP, { baseUrl: proxy.url, recordsPerSecond } satisfies OutageAppConfig, {
    execArgv: ['--max-semi-space-size=16'],
  });
  try {
    proxy.setUpstream(Number(new URL(receiver.url).port));
    await app.next('ready', 30_000);
    await sleep(upMillis);

    app.send({ type: 'phase', phase: 'down' });
    // Stop first: requests in flight are answered through the proxy, so an acknowledgement
    // is never lost between a commit and the app (which would count it twice).
    await receiver.stop();
    proxy.setUpstream(undefined);
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
    return {
      recordsPerSecond,
      upMillis,
      downMillis,
      recoveryMillis,
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
      rssTimeline: result.samples
        .filter((_, i) => i % 10 === 0)
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
