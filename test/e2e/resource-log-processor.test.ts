import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  InvalidOptionError,
  ResourceLogProcessor,
  type ResourceLogProcessorOptions,
} from '../../src/index.js';
import { BILLING, CHECKOUT } from '../helpers/component.js';
import { accept, type IngestServer, startIngestServer } from '../helpers/ingest-server.js';
import { logRecord } from '../helpers/records.js';

const KEY = 'test-key-000000000001';

function messagesByPath(server: IngestServer): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const request of server.ingests()) {
    const messages = byPath.get(request.path) ?? [];
    messages.push(...request.body.logs.map((log: { message: string }) => log.message));
    byPath.set(request.path, messages);
  }
  return byPath;
}

describe('LoggerProvider + ResourceLogProcessor', () => {
  let server: IngestServer;
  let processor: ResourceLogProcessor | undefined;
  /** A processor sending to the test server as alice, by default to CHECKOUT. */
  const checkoutProcessor = (options: ResourceLogProcessorOptions = {}) =>
    new ResourceLogProcessor({
      baseUrl: server.url,
      apiKey: KEY,
      username: 'alice',
      resource: CHECKOUT,
      ...options,
    });
  afterEach(async () => {
    await processor?.shutdown();
    await server?.close();
  });

  it('delivers every record of two services to their two resources, in order, by shutdown()', async () => {
    server = await startIngestServer();
    const routes = [
      { match: { 'service.name': 'checkout' }, resource: CHECKOUT },
      { match: { 'service.name': /^bill/ }, resource: BILLING },
    ];
    const processors = ['checkout', 'billing'].map(
      () =>
        new ResourceLogProcessor({
          baseUrl: server.url,
          apiKey: KEY,
          username: 'alice',
          routes,
          maxExportBatchSize: 64,
        }),
    );
    const providers = ['checkout', 'billing'].map(
      (service, p) =>
        new LoggerProvider({
          resource: resourceFromAttributes({ 'service.name': service, 'host.name': 'web-1' }),
          processors: [processors[p] as ResourceLogProcessor],
        }),
    );
    const perService = 300;
    providers.forEach((provider, p) => {
      const logger = provider.getLogger('app.http', '1.0.0');
      for (let i = 0; i < perService; i++) {
        logger.emit({
          severityNumber: 9 + (i % 12),
          body: `message ${p}-${i}`,
          attributes: { i, 'http.route': '/pay' },
        });
      }
    });
    await Promise.all(providers.map((provider) => provider.shutdown()));

    const byPath = messagesByPath(server);
    expect(byPath.get(`/u/alice/resources/${CHECKOUT}/logs/`)).toEqual(
      Array.from({ length: perService }, (_, i) => `message 0-${i}`),
    );
    expect(byPath.get(`/u/alice/resources/${BILLING}/logs/`)).toEqual(
      Array.from({ length: perService }, (_, i) => `message 1-${i}`),
    );
    // 300 records in batches of at most 64: 5 requests per resource.
    expect(server.ingests().every((r) => r.body.logs.length <= 64)).toBe(true);
    expect(server.ingests()).toHaveLength(10);
    // The two providers shut down concurrently: either resource's request may come first.
    const first = server.ingests().find((r) => r.path.includes(CHECKOUT))?.body;
    expect(first.resource).toEqual({ 'service.name': 'checkout', 'host.name': 'web-1' });
    expect(first.logs[0]).toMatchObject({
      level: 'info',
      logger: 'app.http',
      extra: { logger: 'app.http', extra: { i: 0, 'http.route': '/pay' } },
    });
    expect(processors.map((p) => p.getStats().exported)).toEqual([perService, perService]);
  });

  it('sends an open batch after scheduledDelayMillis, without a flush', async () => {
    server = await startIngestServer();
    processor = checkoutProcessor({
      scheduledDelayMillis: 50,
    });
    const provider = new LoggerProvider({ processors: [processor] });
    provider.getLogger('app').emit({ body: 'on its own' });

    await vi.waitFor(() => expect(server.ingests()).toHaveLength(1), { timeout: 2_000 });
    expect(server.ingests()[0]?.body.logs.map((l: { message: string }) => l.message)).toEqual([
      'on its own',
    ]);
  });

  it('provider.forceFlush() resolves once the service has every record', async () => {
    server = await startIngestServer((request, index) => ({
      ...accept(request, index),
      delayMillis: 50,
    }));
    processor = checkoutProcessor({
      maxExportBatchSize: 10,
    });
    const provider = new LoggerProvider({ processors: [processor] });
    const logger = provider.getLogger('app');
    for (let i = 0; i < 35; i++) logger.emit({ body: `r${i}` });
    await provider.forceFlush();

    expect(
      server.ingests().flatMap((r) => r.body.logs.map((l: { message: string }) => l.message)),
    ).toEqual(Array.from({ length: 35 }, (_, i) => `r${i}`));
    expect(processor.getStats()).toMatchObject({ exported: 35, backlog: { batches: 0 } });
  });

  it('serializes a record when it is emitted: later changes to it are not sent', async () => {
    server = await startIngestServer();
    processor = checkoutProcessor();
    const attributes: Record<string, unknown> = { step: 1 };
    const record = { ...logRecord({ body: 'as emitted' }), attributes };
    processor.onEmit(record);
    record.body = 'changed afterwards';
    attributes.step = 2;
    await processor.forceFlush();

    const [log] = server.ingests()[0]?.body.logs ?? [];
    expect(log).toMatchObject({ message: 'as emitted', extra: { extra: { step: 1 } } });
  });

  it('routes records of a resource by its async attributes once they settle', async () => {
    server = await startIngestServer();
    processor = checkoutProcessor({
      routes: [{ match: { 'deployment.environment': 'prod' }, resource: BILLING }],
    });
    let settle: (value: string) => void = () => {};
    const environment = new Promise<string>((resolve) => {
      settle = resolve;
    });
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({
        'service.name': 'billing',
        'deployment.environment': environment,
      }),
      processors: [processor],
    });
    const logger = provider.getLogger('app');
    logger.emit({ body: 'before detection finished' });
    logger.emit({ body: 'still detecting' });
    settle('prod');
    logger.emit({ body: 'after' });
    await processor.forceFlush();

    expect(messagesByPath(server)).toEqual(
      new Map([
        [
          `/u/alice/resources/${BILLING}/logs/`,
          ['before detection finished', 'still detecting', 'after'],
        ],
      ]),
    );
  });

  it('splits by maxBatchBytes, drops a record too large for any batch, and filters below minLevel', async () => {
    server = await startIngestServer();
    const drops: string[] = [];
    processor = checkoutProcessor({
      compression: 'none',
      maxBatchBytes: 4096,
      minLevel: 'info',
      onDrop: (event) => drops.push(event.reason),
    });
    const logger = new LoggerProvider({ processors: [processor] }).getLogger('app');
    for (let i = 0; i < 40; i++)
      logger.emit({ severityNumber: 9, body: `record ${i} ${'x'.repeat(200)}` });
    logger.emit({ severityNumber: 9, body: 'y'.repeat(5000) });
    // Below minLevel by its number: the SDK asks enabled() and never builds the record.
    expect(logger.enabled({ severityNumber: 5 })).toBe(false);
    expect(logger.enabled({ severityNumber: 17 })).toBe(true);
    logger.emit({ severityNumber: 5, body: 'debug by number is not even built' });
    // Below minLevel by its text only: built, then filtered (and counted) by the processor.
    logger.emit({ severityText: 'DEBUG', body: 'debug by text is filtered' });
    await processor.forceFlush();

    const requests = server.ingests();
    expect(requests.length).toBeGreaterThan(2);
    expect(requests.every((r) => r.rawBytes <= 4096)).toBe(true);
    expect(requests.flatMap((r) => r.body.logs.map((l: { message: string }) => l.message))).toEqual(
      Array.from({ length: 40 }, (_, i) => `record ${i} ${'x'.repeat(200)}`),
    );
    expect(processor.getStats()).toMatchObject({
      exported: 40,
      filtered: 1,
      dropped: { oversize: 1 },
    });
    expect(drops).toEqual(['oversize']);
  });

  it('drops records emitted after shutdown(), counted as shutdown', async () => {
    server = await startIngestServer();
    processor = checkoutProcessor();
    processor.onEmit(logRecord({ body: 'in time' }));
    await processor.shutdown();
    processor.onEmit(logRecord({ body: 'too late' }));

    expect(processor.getStats()).toMatchObject({ exported: 1, dropped: { shutdown: 1 } });
    expect(server.ingests()).toHaveLength(1);
  });

  it('refuses a maxExportBatchSize above what the receiver takes per request', () => {
    expect(
      () =>
        new ResourceLogProcessor({
          baseUrl: 'http://127.0.0.1:9',
          apiKey: KEY,
          username: 'alice',
          resource: CHECKOUT,
          maxExportBatchSize: 10_001,
        }),
    ).toThrow(InvalidOptionError);
  });
});
