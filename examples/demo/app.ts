// The demo's instrumented application: three services of one organisation, one exporter
// configuration, a realistic mix of logs (levels, attributes, trace context, an error burst).
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SeverityNumber, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { type ExporterStats, ResourceLogExporter, type ResourceLogExporterOptions } from 'reslog';

export interface DemoApp {
  /** Records the service acknowledged, over the three services' exporters. */
  acknowledged(): number;
  /** The exporters' counters added up. */
  stats(): ExporterStats;
  /** Records emitted so far, by resource key. */
  emitted: Record<string, number>;
  /** Emits the whole scenario; `onBurst` runs while the checkout error burst is under way. */
  run(onBurst: () => Promise<void>): Promise<void>;
  shutdown(): Promise<void>;
}

const SERVICES = {
  'checkout-api': {
    'service.name': 'checkout',
    'host.name': 'web-1',
    'deployment.environment': 'demo',
  },
  'billing-worker': { 'service.name': 'billing-worker', 'reslog.resource.key': 'billing-worker' },
  'edge-host': { 'service.name': 'nginx', 'host.name': 'edge-1' },
} as const;
type Key = keyof typeof SERVICES;

export function createDemoApp(baseUrl: string, apiKey: string, username: string): DemoApp {
  // One configuration for every service, as it would be deployed: checkout by rule, the
  // billing worker by its own reslog.resource.key attribute, edge hosts by host name. Each
  // provider gets its own exporter: a provider's shutdown() shuts its exporter down.
  const options: ResourceLogExporterOptions = {
    baseUrl,
    apiKey,
    username,
    routes: [
      { match: { 'service.name': 'checkout' }, key: 'checkout-api' },
      { match: { 'host.name': /^edge-/ }, key: 'edge-host' },
    ],
  };
  const exporters: ResourceLogExporter[] = [];
  const emitted: Record<string, number> = {
    'checkout-api': 0,
    'billing-worker': 0,
    'edge-host': 0,
  };
  const providers = Object.fromEntries(
    Object.entries(SERVICES).map(([key, attributes]) => [
      key,
      new LoggerProvider({
        resource: resourceFromAttributes(attributes),
        processors: [
          new BatchLogRecordProcessor({
            exporter: exporters[
              exporters.push(new ResourceLogExporter(options)) - 1
            ] as ResourceLogExporter,
            scheduledDelayMillis: 50,
          }),
        ],
      }),
    ]),
  ) as Record<Key, LoggerProvider>;
  const loggers = {
    checkout: providers['checkout-api'].getLogger('checkout.http', '2.4.1'),
    payments: providers['checkout-api'].getLogger('checkout.payments', '2.4.1'),
    billing: providers['billing-worker'].getLogger('billing.jobs', '1.9.0'),
    edge: providers['edge-host'].getLogger('nginx.access'),
  };

  const emit = (
    key: Key,
    logger: keyof typeof loggers,
    record: Parameters<(typeof loggers)['edge']['emit']>[0],
  ) => {
    loggers[logger].emit(record);
    emitted[key] = (emitted[key] ?? 0) + 1;
  };
  const inTrace = () =>
    trace.setSpan(
      ROOT_CONTEXT,
      trace.wrapSpanContext({
        traceId: randomBytes(16).toString('hex'),
        spanId: randomBytes(8).toString('hex'),
        traceFlags: 1,
      }),
    );
  const pause = () => new Promise((resolve) => setImmediate(resolve));

  async function checkoutTraffic(requests: number) {
    for (let i = 0; i < requests; i++) {
      const context = inTrace();
      const route = ['/cart', '/checkout', '/pay', '/orders'][i % 4] as string;
      const slow = i % 17 === 0;
      emit('checkout-api', 'checkout', {
        context,
        severityNumber: slow ? SeverityNumber.WARN : SeverityNumber.INFO,
        severityText: slow ? 'WARN' : 'INFO',
        body: slow ? `slow request ${route}` : `${route} served`,
        attributes: {
          'http.route': route,
          'http.response.status_code': 200,
          'duration.ms': slow ? 1840 : 35 + (i % 40),
        },
      });
      if (i % 10 === 0) {
        emit('checkout-api', 'payments', {
          context,
          severityNumber: SeverityNumber.DEBUG,
          severityText: 'DEBUG',
          body: 'payment intent created',
          attributes: { 'order.id': 5000 + i, 'payment.provider': 'acme-pay' },
        });
      }
      if (i % 50 === 0) await pause();
    }
  }

  async function errorBurst(count: number) {
    // The exception and code location semantic conventions become the service's
    // extra.exception (one traceback string) and extra.module/function/line/path.
    const timeout = new Error('acme-pay did not answer within 5000 ms');
    timeout.name = 'ProviderTimeoutError';
    for (let i = 0; i < count; i++) {
      emit('checkout-api', 'payments', {
        context: inTrace(),
        severityNumber: SeverityNumber.ERROR,
        severityText: 'ERROR',
        body: 'payment provider timed out',
        attributes: {
          'order.id': 9000 + i,
          'payment.provider': 'acme-pay',
          'retry.count': 3,
          'exception.type': timeout.name,
          'exception.message': timeout.message,
          'exception.stacktrace': timeout.stack ?? '',
          'code.function.name': 'chargeCard',
          'code.file.path': 'src/payments/charge.ts',
          'code.line.number': 88,
        },
        eventName: 'payment.failed',
      });
    }
  }

  async function billingJobs(jobs: number) {
    for (let i = 0; i < jobs; i++) {
      emit('billing-worker', 'billing', {
        severityNumber: SeverityNumber.DEBUG,
        severityText: 'DEBUG',
        body: `job ${i} picked up`,
        attributes: { 'job.id': `inv-${i}`, queue: 'invoices' },
      });
      const late = i % 25 === 24;
      emit('billing-worker', 'billing', {
        severityNumber: late ? SeverityNumber.WARN : SeverityNumber.INFO,
        severityText: late ? 'WARN' : 'INFO',
        body: late ? `invoice ${i} sent late` : `invoice ${i} sent`,
        attributes: {
          'job.id': `inv-${i}`,
          'invoice.amount': Math.round(((i * 37) % 500) * 100) / 100,
        },
      });
    }
    emit('billing-worker', 'billing', {
      severityNumber: SeverityNumber.FATAL,
      severityText: 'FATAL',
      body: 'ledger export aborted: disk quota exceeded',
      attributes: { 'disk.used_ratio': 0.99 },
    });
  }

  async function edgeTraffic(lines: number) {
    for (let i = 0; i < lines; i++) {
      const upstreamSlow = i % 30 === 0;
      emit('edge-host', 'edge', {
        severityNumber: upstreamSlow ? SeverityNumber.WARN : SeverityNumber.INFO,
        severityText: upstreamSlow ? 'WARN' : 'INFO',
        body: upstreamSlow ? 'upstream response slow' : `GET /static/app.${i % 7}.js 200`,
        attributes: { 'client.address': `198.51.100.${i % 250}`, 'http.response.status_code': 200 },
      });
    }
  }

  const stats = (): ExporterStats => {
    const all = exporters.map((exporter) => exporter.getStats());
    const sum = (pick: (s: ExporterStats) => number) =>
      all.reduce((total, s) => total + pick(s), 0);
    const first = all[0] as ExporterStats;
    return {
      exported: sum((s) => s.exported),
      retried: sum((s) => s.retried),
      filtered: sum((s) => s.filtered),
      encodingFallbacks: sum((s) => s.encodingFallbacks),
      keyLookupFailures: sum((s) => s.keyLookupFailures),
      dropped: Object.fromEntries(
        Object.keys(first.dropped).map((reason) => [
          reason,
          sum((s) => s.dropped[reason as keyof typeof s.dropped]),
        ]),
      ) as ExporterStats['dropped'],
      backlog: {
        bytes: sum((s) => s.backlog.bytes),
        batches: sum((s) => s.backlog.batches),
      },
      spool: undefined,
      targets: Object.assign({}, ...all.map((s) => s.targets)),
    };
  };

  return {
    acknowledged: () => stats().exported,
    stats,
    emitted,
    async run(onBurst) {
      await checkoutTraffic(240);
      await billingJobs(100);
      await edgeTraffic(150);
      await errorBurst(30);
      await onBurst();
      await checkoutTraffic(120);
    },
    async shutdown() {
      await Promise.all(Object.values(providers).map((provider) => provider.shutdown()));
    },
  };
}
