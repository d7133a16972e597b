/**
 * Scenarios 1–3, one process per run (forked by bench/run.ts with a JSON config): builds the
 * records, warms up with a full pass, then times `repetitions` passes against the sink and
 * reports each pass by IPC. Modes:
 * - `exporter`: `export()` batches of 512 straight into the exporter, each awaited before
 *   the next, as `BatchLogRecordProcessor` does;
 * - `e2e`: `LoggerProvider` + `BatchLogRecordProcessor` + the exporter: emit N, `forceFlush`;
 * - `undici`: one keep-alive connection POSTing pre-serialized bodies, one in flight.
 */
import { gzipSync } from 'node:zlib';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  type LogRecordExporter,
  type ReadableLogRecord,
} from '@opentelemetry/sdk-logs';
import { Pool } from 'undici';
import { loadReslog } from './package-under-test.ts';
import {
  BENCH_API_KEY,
  BENCH_RESOURCE_UUID,
  BENCH_USERNAME,
  buildRecords,
  INGEST_PATH,
  ingestBody,
  MESSAGE,
  RESOURCE_ATTRIBUTES,
  recordAttributes,
  SCOPE,
} from './records.ts';

export interface ClientConfig {
  mode: 'exporter' | 'e2e' | 'undici';
  exporter: 'reslog' | 'otlp' | 'undici';
  compression: 'none' | 'gzip';
  records: number;
  batchSize: number;
  repetitions: number;
  sinkUrl: string;
  /** reslog only: a disk spool directory (bench/spool-cost.ts measures what it costs). */
  spoolDir?: string;
}

/** One timed pass. */
export interface PassResult {
  elapsedMillis: number;
  cpuMillis: number;
  /** Records the sink counted in this pass (must equal the records sent). */
  sinkRecords: number;
  sinkRequests: number;
  wireBytes: number;
  jsonBytes: number;
}

export interface ClientResult {
  type: 'result';
  passes: PassResult[];
  warmupMillis: number;
  baselineRssBytes: number;
  peakRssBytes: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as ClientConfig;
const { ResourceLogExporter } = await loadReslog();

type OtlpOptions = NonNullable<ConstructorParameters<typeof OTLPLogExporter>[0]>;

function createExporter(): LogRecordExporter {
  if (config.exporter === 'reslog') {
    return new ResourceLogExporter({
      baseUrl: config.sinkUrl,
      apiKey: BENCH_API_KEY,
      username: BENCH_USERNAME,
      resource: BENCH_RESOURCE_UUID,
      compression: config.compression,
      // export() returns once a batch is queued, so a pass of 200 000 records emitted at once
      // is queued whole: 95 MB of uncompressed bodies, above the 64 MiB default. The bench
      // measures cost, not drops (docs/performance.md).
      maxBacklogBytes: 1024 * 1024 * 1024,
      ...(config.spoolDir ? { spoolDir: config.spoolDir, maxSpoolBytes: 4 * 1024 ** 3 } : {}),
    });
  }
  return new OTLPLogExporter({
    url: `${config.sinkUrl}/v1/logs`,
    compression: config.compression as OtlpOptions['compression'],
  });
}

function exportOnce(exporter: LogRecordExporter, batch: ReadableLogRecord[]): Promise<void> {
  return new Promise((resolve, reject) => {
    exporter.export(batch, (result) => {
      if (result.code === 0) resolve();
      else reject(result.error ?? new Error('export failed'));
    });
  });
}

async function sink(path: string): Promise<Record<string, number>> {
  const response = await fetch(`${config.sinkUrl}${path}`, {
    method: path.endsWith('reset') ? 'POST' : 'GET',
  });
  return (await response.json()) as Record<string, number>;
}

function batchesOf(records: ReadableLogRecord[]): ReadableLogRecord[][] {
  const batches: ReadableLogRecord[][] = [];
  for (let i = 0; i < records.length; i += config.batchSize) {
    batches.push(records.slice(i, i + config.batchSize));
  }
  return batches;
}

/** Returns the work of one pass; everything it allocates up front stays outside the timing. */
async function preparePass(records: ReadableLogRecord[]): Promise<() => Promise<void>> {
  if (config.mode === 'exporter') {
    const exporter = createExporter();
    const batches = batchesOf(records);
    return async () => {
      for (const batch of batches) await exportOnce(exporter, batch);
      await exporter.shutdown();
    };
  }
  if (config.mode === 'e2e') {
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ ...RESOURCE_ATTRIBUTES }),
      processors: [
        new BatchLogRecordProcessor({
          exporter: createExporter(),
          maxExportBatchSize: config.batchSize,
          // Emitting N in one go must not overflow the queue: this measures cost, not drops.
          maxQueueSize: config.records,
        }),
      ],
    });
    const logger = provider.getLogger(SCOPE.name, SCOPE.version);
    return async () => {
      for (let i = 0; i < config.records; i++) {
        logger.emit({
          severityNumber: 9,
          severityText: 'INFO',
          body: `${MESSAGE} #${i}`,
          attributes: recordAttributes(i),
        });
      }
      await provider.forceFlush();
      await provider.shutdown();
    };
  }
  const bodies = batchesOf(records).map((batch) => {
    const json = Buffer.from(ingestBody(batch));
    return config.compression === 'gzip' ? gzipSync(json) : json;
  });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-api-key': BENCH_API_KEY,
    ...(config.compression === 'gzip' ? { 'content-encoding': 'gzip' } : {}),
  };
  const pool = new Pool(config.sinkUrl, { connections: 1, pipelining: 1 });
  return async () => {
    for (const body of bodies) {
      const response = await pool.request({ method: 'POST', path: INGEST_PATH, headers, body });
      await response.body.text();
      if (response.statusCode >= 300) throw new Error(`sink answered ${response.statusCode}`);
    }
    await pool.close();
  };
}

async function timedPass(records: ReadableLogRecord[]): Promise<PassResult> {
  const run = await preparePass(records);
  await sink('/_bench/reset');
  globalThis.gc?.();
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  await run();
  const elapsedMillis = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const counted = await sink('/_bench/stats');
  return {
    elapsedMillis,
    cpuMillis: (cpu.user + cpu.system) / 1000,
    sinkRecords: counted.records ?? 0,
    sinkRequests: counted.requests ?? 0,
    wireBytes: counted.wireBytes ?? 0,
    jsonBytes: counted.jsonBytes ?? 0,
  };
}

try {
  const records = buildRecords(config.records);
  globalThis.gc?.();
  const baselineRssBytes = process.memoryUsage.rss();
  const warmup = await timedPass(records);
  if (warmup.sinkRecords !== config.records) {
    throw new Error(`warm-up: sink counted ${warmup.sinkRecords} of ${config.records} records`);
  }
  const passes: PassResult[] = [];
  for (let i = 0; i < config.repetitions; i++) {
    const pass = await timedPass(records);
    if (pass.sinkRecords !== config.records) {
      throw new Error(
        `pass ${i + 1}: sink counted ${pass.sinkRecords} of ${config.records} records`,
      );
    }
    passes.push(pass);
  }
  const result: ClientResult = {
    type: 'result',
    passes,
    warmupMillis: warmup.elapsedMillis,
    baselineRssBytes,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  };
  process.send?.(result);
} catch (error) {
  process.send?.({ type: 'error', message: error instanceof Error ? error.stack : String(error) });
}
process.disconnect?.();
