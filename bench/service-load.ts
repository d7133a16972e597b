/**
 * Scenario 7's load generator, in its own process (forked by bench/run.ts): POSTs small order
 * requests to the service at a fixed rate, open loop (`open-loop.ts`: latency from each
 * request's due time), over a pool of keep-alive undici connections. The parent drives it:
 * `{type:'run', phase, durationMillis, requestsPerSecond?}` runs one phase (at the configured
 * rate unless the message names one) and answers `{type:'phase-done', …}`;
 * `{type:'close'}` closes the pool and ends the process.
 */
import { Pool } from 'undici';
import { type LatencySummary, runOpenLoop, summarizeLatencies } from './open-loop.ts';

export interface ServiceLoadConfig {
  url: string;
  requestsPerSecond: number;
  /** Most connections the pool opens; enough that requests never queue for one. */
  connections: number;
}

export interface ServiceLoadPhase {
  type: 'phase-done';
  phase: string;
  requests: number;
  failures: number;
  elapsedMillis: number;
  latencyMillis: LatencySummary;
  /** How late the generator sent requests (p99, max): the floor under every latency. */
  sendLagMillis: { p99: number; max: number };
  cpuMillis: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as ServiceLoadConfig;
const pool = new Pool(config.url, {
  connections: config.connections,
  pipelining: 1,
  keepAliveTimeout: 60_000,
});
const headers = { 'content-type': 'application/json' };
let orderId = 0;

/** A cart of 3 items: ≈ 200 bytes of JSON, as a small API request carries. */
function body(id: number): string {
  return JSON.stringify({
    customer: `c${id % 977}`,
    items: [
      { sku: `sku-${id % 31}`, quantity: 1, priceCents: 1299 },
      { sku: `sku-${(id + 7) % 31}`, quantity: 2, priceCents: 499 },
      { sku: `sku-${(id + 13) % 31}`, quantity: 1, priceCents: 8900 },
    ],
    coupon: id % 5 === 0 ? 'WELCOME10' : null,
  });
}

async function send(): Promise<void> {
  const id = orderId++;
  const response = await pool.request({
    method: 'POST',
    path: `/orders/${id}?currency=EUR&channel=web`,
    headers,
    body: body(id),
  });
  await response.body.text();
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
}

async function runPhase(
  phase: string,
  durationMillis: number,
  requestsPerSecond: number,
): Promise<ServiceLoadPhase> {
  const cpuBefore = process.cpuUsage();
  const run = await runOpenLoop({
    requestsPerSecond,
    durationMillis,
    send,
  });
  const cpu = process.cpuUsage(cpuBefore);
  const lags = summarizeLatencies(run.sendLags);
  return {
    type: 'phase-done',
    phase,
    requests: run.latencies.length,
    failures: run.failures,
    elapsedMillis: run.elapsedMillis,
    latencyMillis: summarizeLatencies(run.latencies),
    sendLagMillis: { p99: lags.p99, max: lags.max },
    cpuMillis: (cpu.user + cpu.system) / 1000,
  };
}

interface LoadMessage {
  type: string;
  phase?: string;
  durationMillis?: number;
  requestsPerSecond?: number;
}

process.on('message', (message: LoadMessage) => {
  if (message.type === 'run') {
    runPhase(
      message.phase ?? 'timed',
      message.durationMillis ?? 1000,
      message.requestsPerSecond ?? config.requestsPerSecond,
    ).then(
      (result) => process.send?.(result),
      (error: unknown) =>
        process.send?.({
          type: 'error',
          message: error instanceof Error ? error.stack : String(error),
        }),
    );
  } else if (message.type === 'close') {
    void pool.close().finally(() => process.disconnect?.());
  }
});
process.send?.({ type: 'ready' });
