/**
 * Scenario 4's load generator, in its own process (forked by bench/run.ts): POSTs
 * pre-serialized ingest bodies over keep-alive undici connections, either closed-loop
 * (`concurrency` requests always in flight) or at a fixed request rate, first for a warm-up
 * period, then for the timed period, and reports throughput, statuses and latency
 * percentiles by IPC.
 */
import { Pool } from 'undici';
import { BENCH_API_KEY, buildRecords, INGEST_PATH, ingestBody } from './records.ts';
import { percentile } from './summary.ts';

export interface LoadConfig {
  url: string;
  batchRecords: number;
  concurrency: number;
  /** Fixed request rate (open loop); closed loop when absent. */
  requestsPerSecond?: number;
  warmupMillis: number;
  durationMillis: number;
}

export interface LoadResult {
  type: 'result';
  requests: number;
  acceptedRecords: number;
  warmupAcceptedRecords: number;
  /** Non-2xx answers and network errors by status (`network` for the latter). */
  failures: Record<string, number>;
  elapsedMillis: number;
  latencyMillis: { p50: number; p99: number; max: number };
  cpuMillis: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as LoadConfig;
const BODY_VARIANTS = 8;
const TIMESTAMP_KEYS = ['"ts":"', '"observed_ts":"'];

/** A pre-serialized body and where each of its timestamps starts. */
interface Template {
  bytes: Buffer;
  timestampOffsets: number[];
}

function template(text: string): Template {
  // ASCII only, so that string offsets are byte offsets.
  if (Buffer.byteLength(text) !== text.length) throw new Error('bench bodies must be ASCII');
  const timestampOffsets: number[] = [];
  for (const key of TIMESTAMP_KEYS) {
    for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + 1)) {
      timestampOffsets.push(at + key.length);
    }
  }
  return { bytes: Buffer.from(text), timestampOffsets };
}

const records = buildRecords(config.batchRecords * BODY_VARIANTS);
const templates = Array.from({ length: BODY_VARIANTS }, (_, i) =>
  template(ingestBody(records.slice(i * config.batchRecords, (i + 1) * config.batchRecords))),
);
const firstSecond = Math.floor(Date.now() / 1000);

/**
 * The body of request `n`: a copy of a template whose timestamps are moved to second
 * `firstSecond + n`, so that each request's records are newer than the last one's. Logs
 * reach a service roughly in time order; replaying the same timestamps over and over would
 * measure inserts into the middle of the time index instead (docs/performance.md).
 */
function bodyFor(n: number): Buffer {
  const { bytes, timestampOffsets } = templates[n % BODY_VARIANTS] as Template;
  const body = Buffer.from(bytes);
  const dateTime = new Date((firstSecond + n) * 1000).toISOString().slice(0, 19);
  for (const offset of timestampOffsets) body.write(dateTime, offset, 'latin1');
  return body;
}
const headers = { 'content-type': 'application/json', 'x-api-key': BENCH_API_KEY };
const pool = new Pool(config.url, {
  connections: Math.max(config.concurrency, 1),
  pipelining: 1,
  keepAliveTimeout: 60_000,
});

interface Phase {
  requests: number;
  accepted: number;
  failures: Record<string, number>;
  latencies: number[];
}

let sent = 0;
async function send(phase: Phase): Promise<void> {
  const body = bodyFor(sent++);
  const start = performance.now();
  let status = 'network';
  try {
    const response = await pool.request({ method: 'POST', path: INGEST_PATH, headers, body });
    const text = await response.body.text();
    status = String(response.statusCode);
    if (response.statusCode < 300) {
      phase.accepted += (JSON.parse(text) as { accepted?: number }).accepted ?? 0;
      status = '';
    }
  } catch {
    // Counted below as a network failure.
  }
  phase.latencies.push(performance.now() - start);
  phase.requests++;
  if (status) phase.failures[status] = (phase.failures[status] ?? 0) + 1;
}

async function runFor(millis: number): Promise<Phase & { elapsedMillis: number }> {
  const phase: Phase = { requests: 0, accepted: 0, failures: {}, latencies: [] };
  const start = performance.now();
  const end = start + millis;
  if (config.requestsPerSecond === undefined) {
    const worker = async () => {
      while (performance.now() < end) await send(phase);
    };
    await Promise.all(Array.from({ length: config.concurrency }, worker));
  } else {
    const interval = 1000 / config.requestsPerSecond;
    const inFlight = new Set<Promise<void>>();
    for (let due = start; due < end; due += interval) {
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const request = send(phase).finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    await Promise.all(inFlight);
  }
  return { ...phase, elapsedMillis: performance.now() - start };
}

try {
  const warmup = await runFor(config.warmupMillis);
  const cpuBefore = process.cpuUsage();
  const timed = await runFor(config.durationMillis);
  const cpu = process.cpuUsage(cpuBefore);
  await pool.close();
  const result: LoadResult = {
    type: 'result',
    requests: timed.requests,
    acceptedRecords: timed.accepted,
    warmupAcceptedRecords: warmup.accepted,
    failures: timed.failures,
    elapsedMillis: timed.elapsedMillis,
    latencyMillis: {
      p50: percentile(timed.latencies, 50),
      p99: percentile(timed.latencies, 99),
      max: percentile(timed.latencies, 100),
    },
    cpuMillis: (cpu.user + cpu.system) / 1000,
  };
  process.send?.(result);
} catch (error) {
  process.send?.({ type: 'error', message: error instanceof Error ? error.stack : String(error) });
}
process.disconnect?.();
