import { describe, expect, it, vi } from 'vitest';
import { cleanUpAfterEach } from '../helpers/component.js';
import { accept, type IngestServer, startIngestServer } from '../helpers/ingest-server.js';
import { PIPELINES, type Pipeline } from '../helpers/pipelines.js';
import { exportOnce, exportQueued, logRecord, resource } from '../helpers/records.js';

const STALLED = '11111111-1111-4111-8111-111111111111';
const FAILING = '22222222-2222-4222-8222-222222222222';
const HEALTHY = '33333333-3333-4333-8333-333333333333';

let server: IngestServer;
let exporter: Pipeline | undefined;
cleanUpAfterEach(() => ({ exporter, server }));

describe.each(PIPELINES)('$name', ({ create }) => {
  describe('targets are isolated', () => {
    it('delivers a healthy target while another stalls and a third fails', async () => {
      let healthyAnsweredAt = 0;
      server = await startIngestServer((request, index) => {
        if (request.path.includes(STALLED)) return { stall: true };
        if (request.path.includes(FAILING)) return { status: 503, headers: { 'retry-after': '0' } };
        healthyAnsweredAt = Date.now();
        return accept(request, index);
      });
      exporter = create({
        baseUrl: server.url,
        apiKey: 'k-000000000000000001',
        username: 'alice',
        timeoutMillis: 1_000,
        shutdownTimeoutMillis: 2_500,
        routes: [
          { match: { 'service.name': 'stalled' }, resource: STALLED },
          { match: { 'service.name': 'failing' }, resource: FAILING },
          { match: { 'service.name': 'healthy' }, resource: HEALTHY },
        ],
      });
      const of = (service: string) =>
        logRecord({ resource: resource({ 'service.name': service }) });
      const started = Date.now();
      const result = await exportQueued(exporter, [
        of('stalled'),
        of('failing'),
        of('healthy'),
        of('healthy'),
      ]);
      expect(result.code).toBe(0);
      await vi.waitFor(() => expect(healthyAnsweredAt).toBeGreaterThan(0));
      expect(healthyAnsweredAt - started).toBeLessThan(500);
      const during = exporter.getStats();
      expect(during.targets[`alice/${HEALTHY}`]).toMatchObject({ backlogBatches: 0 });
      expect(during.targets[`alice/${STALLED}`]).toMatchObject({ backlogBatches: 1 });
      expect(during.targets[`alice/${FAILING}`]).toMatchObject({ backlogBatches: 1 });

      // The two targets that never take their batch hold them until shutdown() gives up.
      await exporter.shutdown();
      const stats = exporter.getStats();
      expect(stats.targets[`alice/${HEALTHY}`]).toMatchObject({ exported: 2, dropped: 0 });
      expect(stats.targets[`alice/${STALLED}`]).toMatchObject({ exported: 0, dropped: 1 });
      expect(stats.targets[`alice/${FAILING}`]).toMatchObject({ exported: 0, dropped: 1 });
      expect(stats.dropped.shutdown).toBe(2);
    });

    it('keeps one request in flight per target so a resource receives its batches in order', async () => {
      server = await startIngestServer((request, index) => ({
        ...accept(request, index),
        delayMillis: 5,
      }));
      exporter = create({
        baseUrl: server.url,
        apiKey: 'k-000000000000000001',
        username: 'alice',
        resource: HEALTHY,
        compression: 'none',
        maxBatchBytes: 2048,
      });
      const records = Array.from({ length: 100 }, (_, i) => logRecord({ body: `r${i}` }));
      await Promise.all([
        exportOnce(exporter, records.slice(0, 50)),
        exportOnce(exporter, records.slice(50)),
      ]);

      const messages = server
        .ingests()
        .flatMap((r) => r.body.logs.map((l: { message: string }) => l.message));
      expect(messages).toEqual(records.map((r) => r.body));
      expect(server.ingests().length).toBeGreaterThan(4);
      expect(server.maxConcurrent(`/u/alice/resources/${HEALTHY}/logs/`)).toBe(1);
    });

    it('sends to different targets concurrently', async () => {
      const arrivals: number[] = [];
      server = await startIngestServer((request, index) => {
        arrivals.push(Date.now());
        return { ...accept(request, index), delayMillis: 400 };
      });
      exporter = create({
        baseUrl: server.url,
        apiKey: 'k-000000000000000001',
        username: 'alice',
        routes: [
          { match: { 'service.name': 'a' }, resource: STALLED },
          { match: { 'service.name': 'b' }, resource: HEALTHY },
        ],
      });
      const of = (service: string) =>
        logRecord({ resource: resource({ 'service.name': service }) });
      await exportOnce(exporter, [of('a'), of('b')]);
      // Sent one after the other, the second would arrive only after the first answer (400 ms).
      expect(arrivals).toHaveLength(2);
      expect(Math.abs((arrivals[1] ?? 0) - (arrivals[0] ?? 0))).toBeLessThan(300);
    });
  });
});
