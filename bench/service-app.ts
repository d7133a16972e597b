/**
 * Scenario 7's service, in its own process (forked by bench/run.ts): a `node:http` app whose
 * handler for `POST /orders/:id` parses the URL and the JSON body, prices the cart, answers
 * with JSON and emits 10 log records on the way, through the OpenTelemetry SDK
 * (`LoggerProvider` + `BatchLogRecordProcessor` with its defaults) and the exporter under test,
 * or through reslog's `ResourceLogProcessor` in place of both (`exporter: 'processor'`), or
 * through a processor that drops every record (`exporter: 'drop'`: the SDK's own part, which
 * any processor pays), or through the API's no-op logger when no SDK is installed
 * (`exporter: 'none'`).
 *
 * IPC: sends `{type:'ready', url}`; `window-start` / `window-end` bracket the timed phase
 * (CPU from `process.cpuUsage()`, every thread; event-loop delay from
 * `monitorEventLoopDelay`); `finish` closes the server, flushes (for reslog also
 * `exporter.forceFlush()`: the provider's flush does not wait for reslog's backlog) and
 * answers with the records emitted and handed to the exporter.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type Logger, logs } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
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
  RESOURCE_ATTRIBUTES,
  SCOPE,
} from './records.ts';

export interface ServiceAppConfig {
  sinkUrl: string;
  /**
   * `none`: no SDK at all (the API's no-op logger); `noop`: the SDK and an exporter that drops;
   * `drop`: the SDK and a processor that drops, no batch processor (the floor of any
   * processor); `processor`: reslog's `ResourceLogProcessor` instead of the batch processor
   * and an exporter.
   */
  exporter: 'none' | 'noop' | 'drop' | 'otlp' | 'reslog' | 'processor';
  /** The exporter's `compression`; its default when absent. */
  compression?: 'auto' | 'gzip' | 'none';
  eldResolutionMillis: number;
}

export interface ServiceWindow {
  type: 'window';
  elapsedMillis: number;
  cpuMillis: number;
  /** Of `cpuMillis`, the main thread's (`process.threadCpuUsage()`): the event loop's share. */
  mainThreadCpuMillis: number;
  /**
   * CPU per kind of thread over the window, from /proc (Linux, 10 ms ticks): `MainThread`,
   * `V8Worker` (GC, compilers), `libuv-worker` (zlib), … Empty where /proc is not there.
   */
  threadsCpuMillis: Record<string, number>;
  requests: number;
  records: number;
  /** Event-loop delay beyond the sampling interval, in milliseconds. */
  eldMillis: { p50: number; p99: number; max: number };
  rssMiB: number;
}

export interface ServiceAppResult {
  type: 'result';
  emitted: number;
  handedToExporter: number;
  flushMillis: number;
  /** reslog's `getStats().dropped`; empty for the others. */
  exporterDropped: Record<string, number>;
}

const config = JSON.parse(process.argv[2] ?? '{}') as ServiceAppConfig;

let handedToExporter = 0;
let flushExporter = async () => {};
let exporterDropped = (): Record<string, number> => ({});

async function createExporter(): Promise<LogRecordExporter | undefined> {
  if (config.exporter === 'none') return undefined;
  if (config.exporter === 'noop') {
    return {
      export: (_logs, callback) => callback({ code: 0 }),
      shutdown: async () => {},
      forceFlush: async () => {},
    };
  }
  if (config.exporter === 'otlp') {
    type OtlpOptions = NonNullable<ConstructorParameters<typeof OTLPLogExporter>[0]>;
    return new OTLPLogExporter({
      url: `${config.sinkUrl}/v1/logs`,
      ...(config.compression === undefined
        ? {}
        : { compression: config.compression as OtlpOptions['compression'] }),
    });
  }
  const { ResourceLogExporter } = await loadReslog();
  const exporter = new ResourceLogExporter(reslogOptions);
  flushExporter = () => exporter.forceFlush();
  exporterDropped = () => ({ ...exporter.getStats().dropped });
  return exporter;
}

const reslogOptions = {
  baseUrl: config.sinkUrl,
  apiKey: BENCH_API_KEY,
  username: BENCH_USERNAME,
  resource: BENCH_RESOURCE_UUID,
  ...(config.compression === undefined ? {} : { compression: config.compression }),
} as const;

const inner =
  config.exporter === 'processor' || config.exporter === 'drop'
    ? undefined
    : await createExporter();
let provider: LoggerProvider | undefined;
let logger: Logger;
if (config.exporter === 'drop') {
  provider = new LoggerProvider({
    resource: resourceFromAttributes({ ...RESOURCE_ATTRIBUTES }),
    processors: [
      {
        onEmit() {
          handedToExporter++;
        },
        forceFlush: async () => {},
        shutdown: async () => {},
      },
    ],
  });
  logger = provider.getLogger(SCOPE.name, SCOPE.version);
} else if (config.exporter === 'processor') {
  const { ResourceLogProcessor } = await loadReslog();
  const processor = new ResourceLogProcessor(reslogOptions);
  flushExporter = () => processor.forceFlush();
  exporterDropped = () => ({ ...processor.getStats().dropped });
  provider = new LoggerProvider({
    resource: resourceFromAttributes({ ...RESOURCE_ATTRIBUTES }),
    processors: [
      {
        onEmit(record, context) {
          handedToExporter++;
          processor.onEmit(record, context);
        },
        forceFlush: () => processor.forceFlush(),
        shutdown: () => processor.shutdown(),
      },
    ],
  });
  logger = provider.getLogger(SCOPE.name, SCOPE.version);
} else if (inner) {
  const counting: LogRecordExporter = {
    export(records, callback) {
      handedToExporter += records.length;
      inner.export(records, callback);
    },
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
    shutdown: () => inner.shutdown(),
  };
  provider = new LoggerProvider({
    resource: resourceFromAttributes({ ...RESOURCE_ATTRIBUTES }),
    processors: [new BatchLogRecordProcessor({ exporter: counting })],
  });
  logger = provider.getLogger(SCOPE.name, SCOPE.version);
} else {
  // No global provider is registered: this is the API's no-op logger.
  logger = logs.getLogger(SCOPE.name, SCOPE.version);
}

let emitted = 0;
let requests = 0;
type Attributes = Record<string, string | number | boolean>;
function info(message: string, attributes: Attributes): void {
  emitted++;
  logger.emit({ severityNumber: 9, severityText: 'INFO', body: message, attributes });
}
function debug(message: string, attributes: Attributes): void {
  emitted++;
  logger.emit({ severityNumber: 5, severityText: 'DEBUG', body: message, attributes });
}

interface Cart {
  customer: string;
  items: Array<{ sku: string; quantity: number; priceCents: number }>;
  coupon: string | null;
}

function reply(response: ServerResponse, status: number, json: string): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(json),
  });
  response.end(json);
}

/** The handler: 10 records per order, as a service logging each step would. */
function handle(request: IncomingMessage, response: ServerResponse, raw: Buffer): void {
  const started = performance.now();
  const url = new URL(request.url ?? '/', 'http://service.local');
  const match = /^\/orders\/(\d+)$/.exec(url.pathname);
  if (request.method !== 'POST' || !match) {
    reply(response, 404, '{"error":"not found"}');
    return;
  }
  requests++;
  const orderId = Number(match[1]);
  const currency = url.searchParams.get('currency') ?? 'EUR';
  const route = { 'http.route': '/orders/:id', 'order.id': orderId };
  info(`received order ${orderId} via ${url.searchParams.get('channel') ?? 'api'}`, {
    ...route,
    'http.request.method': 'POST',
    'http.request.body.size': raw.length,
  });
  const cart = JSON.parse(raw.toString('utf8')) as Cart;
  debug(`cart parsed: ${cart.items.length} items for customer ${cart.customer}`, {
    ...route,
    'user.id': cart.customer,
  });
  let totalCents = 0;
  const lines = cart.items.map((item) => {
    const lineCents = item.quantity * item.priceCents;
    totalCents += lineCents;
    debug(`priced ${item.sku}: ${item.quantity} × ${item.priceCents} = ${lineCents} ${currency}`, {
      ...route,
      sku: item.sku,
      quantity: item.quantity,
    });
    return { sku: item.sku, quantity: item.quantity, lineCents };
  });
  const discountCents = cart.coupon === null ? 0 : Math.round(totalCents * 0.1);
  info(cart.coupon === null ? 'no coupon applied' : `coupon ${cart.coupon} applied`, {
    ...route,
    'discount.cents': discountCents,
  });
  totalCents -= discountCents;
  info(`order total ${totalCents} ${currency} after ${discountCents} discount`, {
    ...route,
    'order.total_cents': totalCents,
    currency,
  });
  info(`inventory reserved for ${lines.length} lines`, { ...route, warehouse: 'eu-west-1' });
  info(`payment authorized for customer ${cart.customer}`, {
    ...route,
    'user.id': cart.customer,
    'payment.provider': 'card',
    ok: true,
  });
  const json = JSON.stringify({ orderId, status: 'accepted', currency, totalCents, lines });
  reply(response, 200, json);
  info(`order ${orderId} accepted in ${(performance.now() - started).toFixed(3)} ms`, {
    ...route,
    'http.response.status_code': 200,
    'http.response.body.size': json.length,
  });
}

const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => handle(request, response, Buffer.concat(chunks)));
});

const eld = monitorEventLoopDelay({ resolution: config.eldResolutionMillis });
eld.enable();
/** The histogram holds the time between samples; the delay is what exceeds the interval. */
const delayMillis = (nanos: number) => Math.max(0, nanos / 1e6 - config.eldResolutionMillis);

/** CPU so far per thread name, in milliseconds (`utime` + `stime`, clock ticks of 10 ms). */
function threadsCpu(): Record<string, number> {
  const byName: Record<string, number> = {};
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);
        byName[name] = (byName[name] ?? 0) + ticks * 10;
      } catch {
        // The thread ended between listing and reading.
      }
    }
  } catch {
    // Not Linux.
  }
  return byName;
}

let window = {
  threads: threadsCpu(),
  at: 0,
  cpu: process.cpuUsage(),
  mainCpu: process.threadCpuUsage(),
  records: 0,
  requests: 0,
};

async function finish(): Promise<void> {
  server.close();
  server.closeAllConnections();
  eld.disable();
  const flushStart = performance.now();
  await provider?.forceFlush();
  // The provider hands its queue over; reslog's own flush waits for its backlog to drain.
  await flushExporter();
  const result: ServiceAppResult = {
    type: 'result',
    emitted,
    handedToExporter,
    flushMillis: performance.now() - flushStart,
    exporterDropped: exporterDropped(),
  };
  await new Promise<void>((resolve) => process.send?.(result, () => resolve()) ?? resolve());
  await provider?.shutdown();
}

process.on('message', (message: { type: string }) => {
  if (message.type === 'window-start') {
    eld.reset();
    window = {
      threads: threadsCpu(),
      at: performance.now(),
      cpu: process.cpuUsage(),
      mainCpu: process.threadCpuUsage(),
      records: emitted,
      requests,
    };
    process.send?.({ type: 'window-started' });
  } else if (message.type === 'window-end') {
    const cpu = process.cpuUsage(window.cpu);
    const mainCpu = process.threadCpuUsage(window.mainCpu);
    const result: ServiceWindow = {
      type: 'window',
      elapsedMillis: performance.now() - window.at,
      cpuMillis: (cpu.user + cpu.system) / 1000,
      mainThreadCpuMillis: (mainCpu.user + mainCpu.system) / 1000,
      threadsCpuMillis: Object.fromEntries(
        Object.entries(threadsCpu()).map(([name, ms]) => [name, ms - (window.threads[name] ?? 0)]),
      ),
      requests: requests - window.requests,
      records: emitted - window.records,
      eldMillis: {
        p50: delayMillis(eld.percentile(50)),
        p99: delayMillis(eld.percentile(99)),
        max: delayMillis(eld.max),
      },
      rssMiB: process.memoryUsage.rss() / 1024 / 1024,
    };
    process.send?.(result);
  } else if (message.type === 'finish') {
    finish().then(
      () => process.disconnect?.(),
      (error: unknown) => {
        process.send?.({
          type: 'error',
          message: error instanceof Error ? error.stack : String(error),
        });
        process.disconnect?.();
      },
    );
  }
});

// An exit, not a kill, so that `--cpu-prof` (bench/profile.ts) writes its profile.
process.on('SIGTERM', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
});
