/**
 * Scenarios 5 and 6's application, in its own process (forked by bench/run.ts): logs at a steady
 * rate through `LoggerProvider` + `BatchLogRecordProcessor` (SDK defaults: queue 2 048, batches
 * of 512) + `ResourceLogExporter` (its defaults, or the backlog bound and compression the
 * scenario sets), samples its memory every 100 ms, and labels each
 * sample with the phase the parent announces (`up`, `down`, `recovered`). At the end it flushes
 * and reports every record: emitted, handed to the exporter (the rest were dropped by the
 * processor's queue bound), acknowledged or dropped by the exporter, by reason.
 */
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  type LogRecordExporter,
} from '@opentelemetry/sdk-logs';
import { loadReslog } from './package-under-test.ts';
import {
  BENCH_API_KEY,
  BENCH_RESOURCE_UUID,
  BENCH_USERNAME,
  MESSAGE,
  RESOURCE_ATTRIBUTES,
  recordAttributes,
  SCOPE,
} from './records.ts';

export interface OutageAppConfig {
  baseUrl: string;
  recordsPerSecond: number;
  /** The exporter's defaults when absent. */
  maxBacklogBytes?: number;
  compression?: 'none' | 'gzip';
}

export interface RssSample {
  atMillis: number;
  phase: string;
  rssBytes: number;
  heapUsedBytes: number;
  /** Buffers outside the V8 heap: the queued bodies live here. */
  arrayBuffersBytes: number;
  /** `getStats().backlog.bytes`: queued bodies as the backlog counts them. */
  backlogBytes: number;
}

export interface OutageAppResult {
  type: 'result';
  emitted: number;
  handedToExporter: number;
  exported: number;
  exporterDropped: Record<string, number>;
  retried: number;
  samples: RssSample[];
  flushMillis: number;
  /** Records emitted when each phase began: record numbers `#0 … #n-1` came before it. */
  emittedAtPhase: Record<string, number>;
}

const config = JSON.parse(process.argv[2] ?? '{}') as OutageAppConfig;
const { ResourceLogExporter } = await loadReslog();

const exporter = new ResourceLogExporter({
  baseUrl: config.baseUrl,
  apiKey: BENCH_API_KEY,
  username: BENCH_USERNAME,
  resource: BENCH_RESOURCE_UUID,
  ...(config.maxBacklogBytes === undefined ? {} : { maxBacklogBytes: config.maxBacklogBytes }),
  ...(config.compression === undefined ? {} : { compression: config.compression }),
});
let handedToExporter = 0;
const counting: LogRecordExporter = {
  export(logs, callback) {
    handedToExporter += logs.length;
    exporter.export(logs, callback);
  },
  forceFlush: () => exporter.forceFlush(),
  shutdown: () => exporter.shutdown(),
};
const provider = new LoggerProvider({
  resource: resourceFromAttributes({ ...RESOURCE_ATTRIBUTES }),
  processors: [new BatchLogRecordProcessor({ exporter: counting })],
});
const logger = provider.getLogger(SCOPE.name, SCOPE.version);

let phase = 'up';
let emitted = 0;
const emittedAtPhase: Record<string, number> = { up: 0 };
const samples: RssSample[] = [];
const start = performance.now();

const emitter = setInterval(() => {
  const due = Math.floor(((performance.now() - start) * config.recordsPerSecond) / 1000);
  for (; emitted < due; emitted++) {
    logger.emit({
      severityNumber: 9,
      severityText: 'INFO',
      body: `${MESSAGE} #${emitted}`,
      attributes: recordAttributes(emitted),
    });
  }
}, 10);
const sampler = setInterval(() => {
  const memory = process.memoryUsage();
  samples.push({
    atMillis: Math.round(performance.now() - start),
    phase,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    arrayBuffersBytes: memory.arrayBuffers,
    backlogBytes: exporter.getStats().backlog.bytes,
  });
}, 100);

process.on('message', (message: { type: string; phase?: string }) => {
  if (message.type === 'phase' && message.phase) {
    phase = message.phase;
    emittedAtPhase[phase] = emitted;
  }
  if (message.type === 'finish') void finish();
});
process.send?.({ type: 'ready' });

async function finish(): Promise<void> {
  clearInterval(emitter);
  clearInterval(sampler);
  try {
    const flushStart = performance.now();
    await provider.forceFlush();
    // The provider hands its queue over; the exporter's flush waits for the backlog to drain.
    await exporter.forceFlush();
    const flushMillis = performance.now() - flushStart;
    const stats = exporter.getStats();
    const result: OutageAppResult = {
      type: 'result',
      emitted,
      handedToExporter,
      exported: stats.exported,
      exporterDropped: { ...stats.dropped },
      retried: stats.retried,
      samples,
      flushMillis,
      emittedAtPhase,
    };
    // Disconnecting while the result is still being written cancels the write: scenario 6's
    // result (6 000 memory samples, ≈ 1 MB) was lost that way.
    await new Promise<void>((resolve) => process.send?.(result, () => resolve()) ?? resolve());
    await provider.shutdown();
  } catch (error) {
    process.send?.({
      type: 'error',
      message: error instanceof Error ? error.stack : String(error),
    });
  }
  process.disconnect?.();
}
