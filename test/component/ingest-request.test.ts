import { describe, expect, it } from 'vitest';
import { BILLING, CHECKOUT, cleanUpAfterEach } from '../helpers/component.js';
import { type IngestServer, startIngestServer } from '../helpers/ingest-server.js';
import { PIPELINES, type Pipeline } from '../helpers/pipelines.js';
import { exportOnce, logRecord, resource } from '../helpers/records.js';

const API_KEY = 'alice-dev-key-0000000001';

let server: IngestServer;
let exporter: Pipeline | undefined;
cleanUpAfterEach(() => ({ exporter, server }));

describe.each(PIPELINES)('$name', ({ create }) => {
  describe('the ingest request', () => {
    it('POSTs gzip JSON per resource to /u/<owner>/resources/<uuid>/logs/ with the API key', async () => {
      server = await startIngestServer();
      exporter = create({
        baseUrl: `${server.url}/logs-api/`,
        apiKey: API_KEY,
        username: 'alice',
        routes: [
          { match: { 'service.name': 'checkout' }, resource: CHECKOUT },
          { match: { 'service.name': 'billing' }, resource: BILLING, username: 'bob' },
        ],
      });
      const checkout = resource({ 'service.name': 'checkout', 'host.name': 'web-1' });
      const billing = resource({ 'service.name': 'billing' });
      const result = await exportOnce(exporter, [
        logRecord({ resource: checkout, body: 'one' }),
        logRecord({ resource: billing, body: 'two' }),
        logRecord({ resource: checkout, body: 'three' }),
      ]);

      expect(result.code).toBe(0);
      const ingests = server.ingests();
      expect(ingests.map((r) => r.path).sort()).toEqual([
        `/logs-api/u/alice/resources/${CHECKOUT}/logs/`,
        `/logs-api/u/bob/resources/${BILLING}/logs/`,
      ]);
      for (const request of ingests) {
        expect(request.headers['x-api-key']).toBe(API_KEY);
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.headers['content-encoding']).toBe('gzip');
        expect(request.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
        expect(request.headers['user-agent']).toMatch(/^reslog\//);
      }
      const toCheckout = ingests.find((r) => r.path.includes(CHECKOUT));
      expect(toCheckout?.body).toMatchObject({
        resource_id: CHECKOUT,
        sdk: 'reslog',
        resource: { 'service.name': 'checkout', 'host.name': 'web-1' },
      });
      expect(toCheckout?.body.logs.map((l: { message: string }) => l.message)).toEqual([
        'one',
        'three',
      ]);
      expect(exporter.getStats()).toMatchObject({
        exported: 3,
        targets: {
          [`alice/${CHECKOUT}`]: { exported: 2, dropped: 0, lastStatus: 202 },
          [`bob/${BILLING}`]: { exported: 1, dropped: 0, lastStatus: 202 },
        },
      });
    });

    it('sends plain JSON when compression is none, and extra headers', async () => {
      server = await startIngestServer();
      exporter = create({
        baseUrl: server.url,
        apiKey: API_KEY,
        resource: `${server.url}/u/alice/resources/${CHECKOUT}/`,
        compression: 'none',
        headers: { 'X-Tenant': 'blue' },
      });
      await exportOnce(exporter, [logRecord()]);
      const [request] = server.ingests();
      expect(request?.headers['content-encoding']).toBeUndefined();
      expect(request?.headers['x-tenant']).toBe('blue');
      expect(request?.path).toBe(`/u/alice/resources/${CHECKOUT}/logs/`);
    });

    it('splits an export into requests of at most maxBatchBytes, in order', async () => {
      server = await startIngestServer();
      exporter = create({
        baseUrl: server.url,
        apiKey: API_KEY,
        username: 'alice',
        resource: CHECKOUT,
        compression: 'none',
        maxBatchBytes: 4096,
      });
      const records = Array.from({ length: 200 }, (_, i) =>
        logRecord({ body: `record ${i} ${'x'.repeat(50)}` }),
      );
      const result = await exportOnce(exporter, records);

      expect(result.code).toBe(0);
      const ingests = server.ingests();
      expect(ingests.length).toBeGreaterThan(3);
      for (const request of ingests) expect(request.rawBytes).toBeLessThanOrEqual(4096);
      const messages = ingests.flatMap((r) =>
        r.body.logs.map((l: { message: string }) => l.message),
      );
      expect(messages).toEqual(records.map((r) => r.body));
      expect(new Set(ingests.map((r) => r.headers['idempotency-key'])).size).toBe(ingests.length);
    });

    it('drops a record larger than maxBatchBytes as oversize without sending it', async () => {
      server = await startIngestServer();
      const drops: unknown[] = [];
      exporter = create({
        baseUrl: server.url,
        apiKey: API_KEY,
        username: 'alice',
        resource: CHECKOUT,
        maxBatchBytes: 2048,
        onDrop: (event) => drops.push(event),
      });
      const result = await exportOnce(exporter, [
        logRecord({ body: 'y'.repeat(5000) }),
        logRecord({ body: 'small' }),
      ]);

      expect(result.code).toBe(1);
      expect(result.error?.message).toMatch(/oversize/);
      expect(
        server.ingests().flatMap((r) => r.body.logs.map((l: { message: string }) => l.message)),
      ).toEqual(['small']);
      expect(drops).toEqual([
        expect.objectContaining({ reason: 'oversize', count: 1, target: `alice/${CHECKOUT}` }),
      ]);
      expect(exporter.getStats().dropped.oversize).toBe(1);
    });
  });
});
