import { describe, expect, it } from 'vitest';
import type { ResourceLogExporterOptions } from '../../src/config/options.js';
import { CHECKOUT, cleanUpAfterEach } from '../helpers/component.js';
import { createIdempotentStore } from '../helpers/idempotent-store.js';
import { type IngestServer, startIngestServer } from '../helpers/ingest-server.js';
import { PIPELINES, type Pipeline } from '../helpers/pipelines.js';
import { exportOnce, exportQueued, logRecord } from '../helpers/records.js';

const API_KEY = 'alice-dev-key-0000000001';

let server: IngestServer;
let exporter: Pipeline | undefined;
cleanUpAfterEach(() => ({ exporter, server }));

const records = (n: number) => Array.from({ length: n }, (_, i) => logRecord({ body: `m${i}` }));

describe.each(PIPELINES)('$name', ({ create }) => {
  function newExporter(options: Partial<ResourceLogExporterOptions> = {}) {
    exporter = create({
      baseUrl: server.url,
      apiKey: API_KEY,
      username: 'alice',
      resource: CHECKOUT,
      ...options,
    });
    return exporter;
  }

  describe('retryable answers', () => {
    it.each([
      ['503 with Retry-After seconds', { status: 503, headers: { 'retry-after': '0' } }],
      [
        '429 with Retry-After as HTTP date',
        { status: 429, headers: { 'retry-after': new Date(0).toUTCString() } },
      ],
      ['502 without Retry-After', { status: 502 }],
      ['504 without Retry-After', { status: 504 }],
    ])(
      'retries a %s with the same Idempotency-Key and stores every record once',
      async (_, fault) => {
        const store = createIdempotentStore();
        server = await startIngestServer(
          store.responder((_, index) => (index < 2 ? fault : undefined)),
        );
        const result = await exportOnce(newExporter(), records(5));

        expect(result.code).toBe(0);
        expect(store.messages()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
        const keys = server.ingests().map((r) => r.headers['idempotency-key']);
        expect(keys).toHaveLength(3);
        expect(new Set(keys).size).toBe(1);
        expect(exporter?.getStats()).toMatchObject({ exported: 5, retried: 2 });
      },
    );

    it('retries after a connection reset, and after a reset that came after the commit, without duplicates', async () => {
      const store = createIdempotentStore();
      server = await startIngestServer(
        store.responder((_, index) =>
          index === 0 ? { reset: true } : index === 1 ? 'commit-then-reset' : undefined,
        ),
      );
      const result = await exportOnce(newExporter(), records(3));

      expect(result.code).toBe(0);
      expect(store.messages()).toEqual(['m0', 'm1', 'm2']);
      expect(new Set(server.ingests().map((r) => r.headers['idempotency-key'])).size).toBe(1);
    });

    it('gives up on an attempt that stalls past timeoutMillis and retries it', async () => {
      const store = createIdempotentStore();
      server = await startIngestServer(
        store.responder((_, index) => (index === 0 ? { stall: true } : undefined)),
      );
      const started = Date.now();
      const result = await exportOnce(newExporter({ timeoutMillis: 300 }), records(2));

      expect(result.code).toBe(0);
      expect(store.messages()).toEqual(['m0', 'm1']);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('keeps retrying a target that answers 503 until the batch expires, and export() does not wait for it', async () => {
      server = await startIngestServer(() => ({ status: 503 }));
      const drops: string[] = [];
      const started = Date.now();
      const result = await exportQueued(
        newExporter({ maxBacklogAgeMillis: 1_500, onDrop: (e) => drops.push(e.reason) }),
        records(4),
      );
      expect(result.code).toBe(0);
      expect(Date.now() - started).toBeLessThan(500);

      await exporter?.forceFlush();
      // Dropped once the next wait would end past its age bound, not after waiting for it.
      expect(Date.now() - started).toBeLessThan(1_600);
      expect(drops).toEqual(['expired']);
      expect(exporter?.getStats()).toMatchObject({
        exported: 0,
        dropped: { expired: 4 },
        backlog: { batches: 0, bytes: 0 },
      });
      expect(exporter?.getStats().retried).toBeGreaterThan(1);
    });

    it('waits as long as Retry-After says; shutdown() counts what is still queued at its deadline', async () => {
      server = await startIngestServer(() => ({ status: 429, headers: { 'retry-after': '120' } }));
      const started = Date.now();
      const result = await exportQueued(newExporter({ shutdownTimeoutMillis: 300 }), records(2));
      expect(result.code).toBe(0);
      await exporter?.shutdown();

      expect(Date.now() - started).toBeLessThan(2_000);
      expect(server.ingests()).toHaveLength(1);
      expect(exporter?.getStats()).toMatchObject({
        exported: 0,
        dropped: { shutdown: 2 },
        targets: { [`alice/${CHECKOUT}`]: { lastStatus: 429 } },
      });
    });
  });

  describe('413 Payload Too Large', () => {
    it('halves the batch down to single records and drops a single record still too large as oversize', async () => {
      const store = createIdempotentStore();
      // The service takes at most 2 records per request and never the one named "huge".
      server = await startIngestServer(
        store.responder((request) =>
          request.body.logs.length > 2 ||
          request.body.logs.some((l: { message: string }) => l.message === 'huge')
            ? { status: 413, body: { error: { code: 'payload_too_large', message: 'too large' } } }
            : undefined,
        ),
      );
      const batch = [...records(3), logRecord({ body: 'huge' }), ...records(7).slice(3)];
      const result = await exportOnce(newExporter(), batch);

      expect(store.messages()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
      // Queued at once; the one record the service refuses even alone is counted afterwards.
      expect(result.code).toBe(0);
      expect(exporter?.getStats()).toMatchObject({ exported: 7, dropped: { oversize: 1 } });
    });
  });
});
