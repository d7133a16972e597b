import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { detectResources } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { afterEach, describe, expect, it } from 'vitest';
import { ResourceLogExporter } from '../../src/index.js';
import { type IngestServer, startIngestServer } from '../helpers/ingest-server.js';

const DEFAULT = '6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c';
const AUDIT = '44444444-4444-4444-8444-444444444444';

describe('SimpleLogRecordProcessor, async resource attributes and per-record routing', () => {
  let server: IngestServer;
  afterEach(async () => server?.close());

  it('waits for async resource attributes, honours reslog.resource.uuid on a record, and sends trace context', async () => {
    server = await startIngestServer();
    const exporter = new ResourceLogExporter({
      baseUrl: server.url,
      apiKey: 'k-000000000000000001',
      username: 'alice',
      resource: DEFAULT,
    });
    // A detector whose value arrives later, as cloud and container detectors do.
    const hostName = new Promise<string>((resolve) => setTimeout(() => resolve('web-7'), 20));
    const provider = new LoggerProvider({
      resource: detectResources({
        detectors: [
          { detect: () => ({ attributes: { 'service.name': 'checkout', 'host.name': hostName } }) },
        ],
      }),
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    const logger = provider.getLogger('checkout.http');
    const span = trace.wrapSpanContext({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
    });
    logger.emit({
      severityNumber: 17,
      severityText: 'ERROR',
      body: 'card declined',
      attributes: { code: 51 },
      context: trace.setSpan(ROOT_CONTEXT, span),
    });
    logger.emit({
      body: 'role changed',
      attributes: { 'reslog.resource.uuid': AUDIT, actor: 'bob' },
    });
    // SimpleLogRecordProcessor's shutdown() does not wait for exports still waiting on async
    // resource attributes (sdk-logs 3.1.1); forceFlush() does.
    await provider.forceFlush();
    await provider.shutdown();

    const byPath = Object.fromEntries(server.ingests().map((r) => [r.path, r.body]));
    const main = byPath[`/u/alice/resources/${DEFAULT}/logs/`];
    const audit = byPath[`/u/alice/resources/${AUDIT}/logs/`];
    expect(main.resource).toMatchObject({ 'service.name': 'checkout', 'host.name': 'web-7' });
    expect(main.logs).toEqual([
      expect.objectContaining({
        level: 'error',
        severity_number: 17,
        message: 'card declined',
        logger: 'checkout.http',
        extra: expect.objectContaining({ logger: 'checkout.http', extra: { code: 51 } }),
        trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
        span_id: '00f067aa0ba902b7',
      }),
    ]);
    expect(audit.logs).toEqual([
      expect.objectContaining({
        message: 'role changed',
        extra: expect.objectContaining({ extra: { actor: 'bob' } }),
      }),
    ]);
    expect(exporter.getStats().exported).toBe(2);
  });
});
