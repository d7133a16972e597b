import { describe, expect, it } from 'vitest';
import { BILLING, CHECKOUT, cleanUpAfterEach } from '../helpers/component.js';
import { accept, type IngestServer, startIngestServer } from '../helpers/ingest-server.js';
import { PIPELINES, type Pipeline } from '../helpers/pipelines.js';
import { exportOnce, logRecord, resource } from '../helpers/records.js';

let server: IngestServer;
let exporter: Pipeline | undefined;
cleanUpAfterEach(() => ({ exporter, server }));

describe.each(PIPELINES)('$name', ({ create }) => {
  describe('resource keys', () => {
    it('resolves a key through the service once, caches it, and routes to its UUID', async () => {
      server = await startIngestServer((request, index) => {
        if (request.method === 'GET' && request.path === '/u/alice/resources/by-key/checkout-api') {
          return {
            status: 200,
            body: { uuid: CHECKOUT, key: 'checkout-api', name: 'Checkout', owner: 'alice' },
          };
        }
        return accept(request, index);
      });
      exporter = create({
        baseUrl: server.url,
        apiKey: 'k-000000000000000001',
        username: 'alice',
        routes: [{ match: { 'service.name': 'checkout' }, key: 'checkout-api' }],
      });
      const record = () => logRecord({ resource: resource({ 'service.name': 'checkout' }) });
      expect((await exportOnce(exporter, [record()])).code).toBe(0);
      expect((await exportOnce(exporter, [record(), record()])).code).toBe(0);

      const lookups = server.requests.filter((r) => r.method === 'GET');
      expect(lookups).toHaveLength(1);
      expect(lookups[0]?.headers['x-api-key']).toBe('k-000000000000000001');
      expect(server.ingests().map((r) => r.path)).toEqual([
        `/u/alice/resources/${CHECKOUT}/logs/`,
        `/u/alice/resources/${CHECKOUT}/logs/`,
      ]);
      expect(exporter.getStats().exported).toBe(3);
    });

    it('uses the static resourceKeys map without asking the service, for attribute keys too', async () => {
      server = await startIngestServer();
      exporter = create({
        baseUrl: server.url,
        apiKey: 'k-000000000000000001',
        username: 'alice',
        resourceKeys: { 'billing-worker': BILLING },
      });
      const record = logRecord({
        resource: resource({ 'reslog.resource.key': 'billing-worker', 'service.name': 'b' }),
      });
      expect((await exportOnce(exporter, [record])).code).toBe(0);

      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        `POST /u/alice/resources/${BILLING}/logs/`,
      ]);
      // Routing attributes steer; they are not sent.
      expect(server.ingests()[0]?.body.resource).toEqual({ 'service.name': 'b' });
    });

    it('counts a failed lookup as unresolved_key and asks again on the next export', async () => {
      let lookups = 0;
      server = await startIngestServer((request, index) => {
        if (request.method === 'GET') {
          lookups++;
          return lookups === 1
            ? { status: 404, body: { error: { code: 'not_found', message: 'no such resource' } } }
            : { status: 200, body: { uuid: CHECKOUT } };
        }
        return accept(request, index);
      });
      const drops: string[] = [];
      exporter = create({
        baseUrl: server.url,
        apiKey: 'k-000000000000000001',
        username: 'alice',
        routes: [{ match: { 'service.name': 'checkout' }, key: 'checkout-api' }],
        onDrop: (event) => drops.push(`${event.reason}:${event.error?.code}`),
      });
      const record = () => logRecord({ resource: resource({ 'service.name': 'checkout' }) });

      const first = await exportOnce(exporter, [record()]);
      expect(first.code).toBe(1);
      expect(drops).toEqual(['unresolved_key:RESLOG_KEY_LOOKUP_FAILED']);
      expect(exporter.getStats()).toMatchObject({
        keyLookupFailures: 1,
        dropped: { unresolved_key: 1 },
      });

      const second = await exportOnce(exporter, [record()]);
      expect(second.code).toBe(0);
      expect(lookups).toBe(2);
      expect(server.ingests()).toHaveLength(1);
    });
  });
});
