import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { afterEach, describe, expect, it } from 'vitest';
import { ResourceLogExporter } from '../../src/index.js';
import { type IngestServer, startIngestServer } from '../helpers/ingest-server.js';

const CHECKOUT = '6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c';
const BILLING = '0b7c5a2e-1d3f-4e6a-8b9c-0d1e2f3a4b5c';

describe('LoggerProvider + BatchLogRecordProcessor + ResourceLogExporter', () => {
  let server: IngestServer;
  afterEach(async () => server?.close());

  it('delivers every record of two services to their two resources by shutdown()', async () => {
    server = await startIngestServer();
    const providers = ['checkout', 'billing'].map((service) => {
      const exporter = new ResourceLogExporter({
        baseUrl: server.url,
        apiKey: 'test-key-000000000001',
        username: 'alice',
        routes: [
          { match: { 'service.name': 'checkout' }, resource: CHECKOUT },
          { match: { 'service.name': /^bill/ }, resource: BILLING },
        ],
      });
      return new LoggerProvider({
        resource: resourceFromAttributes({ 'service.name': service, 'host.name': 'web-1' }),
        processors: [
          new BatchLogRecordProcessor({
            exporter,
            maxExportBatchSize: 64,
            scheduledDelayMillis: 20,
          }),
        ],
      });
    });
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

    const byPath = new Map<string, string[]>();
    for (const request of server.ingests()) {
      const messages = byPath.get(request.path) ?? [];
      messages.push(...request.body.logs.map((log: { message: string }) => log.message));
      byPath.set(request.path, messages);
    }
    const checkout = byPath.get(`/u/alice/resources/${CHECKOUT}/logs/`) ?? [];
    const billing = byPath.get(`/u/alice/resources/${BILLING}/logs/`) ?? [];
    expect(checkout).toEqual(Array.from({ length: perService }, (_, i) => `message 0-${i}`));
    expect(billing).toEqual(Array.from({ length: perService }, (_, i) => `message 1-${i}`));
    expect(byPath.size).toBe(2);
  });
});
