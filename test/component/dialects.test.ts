import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { afterEach, describe, expect, it } from 'vitest';
import { BILLING, CHECKOUT } from '../helpers/component.js';
import { type Dialect, sdkShapeProblem, startDialectServer } from '../helpers/dialect-servers.js';
import { PIPELINES } from '../helpers/pipelines.js';

type Server = Awaited<ReturnType<typeof startDialectServer>>;
let server: Server | undefined;
afterEach(async () => server?.close());

const PER_TARGET = 60;

describe.each(PIPELINES)('$name', ({ create }) => {
  /**
   * 60 records for each of two resources through the SDK's batch processor, the pipeline's
   * defaults (the processor behind the export adapter: the batch processor only sets the size of
   * what reaches it at once).
   */
  async function logThroughDefaults(url: string) {
    const exporter = create({
      baseUrl: url,
      apiKey: 'test-key-000000000001',
      username: 'alice',
      routes: [
        { match: { 'service.name': 'checkout' }, resource: CHECKOUT },
        { match: { 'service.name': 'billing' }, resource: BILLING },
      ],
    });
    const providers = ['checkout', 'billing'].map(
      (service) =>
        new LoggerProvider({
          resource: resourceFromAttributes({ 'service.name': service }),
          // Small batches, so that each target gets several requests after the first.
          processors: [
            new BatchLogRecordProcessor({
              exporter,
              maxExportBatchSize: 7,
              scheduledDelayMillis: 5,
            }),
          ],
        }),
    );
    for (const [p, provider] of providers.entries()) {
      const logger = provider.getLogger('app.http');
      for (let i = 0; i < PER_TARGET; i++) {
        logger.emit({
          severityNumber: i % 2 === 0 ? 9 : 17,
          body: `record ${p}-${i}`,
          attributes: { i },
        });
        // Let the processor export while records are still being emitted.
        if (i % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    await Promise.all(providers.map((provider) => provider.forceFlush()));
    // The providers' flush hands their queues to the exporter; the exporter's waits for delivery.
    await exporter.forceFlush();
    const stats = exporter.getStats();
    await exporter.shutdown();
    return stats;
  }

  describe.each<[Dialect, string]>([
    ['plain-json', 'a plain JSON app that answers 400 to a gzipped body'],
    ['rfc7694', 'a server that refuses the encoding with 415 and Accept-Encoding: identity'],
    ['gzip', 'a server that inflates gzip'],
  ])('compression auto against %s (%s)', (dialect) => {
    it('delivers every record once, in the SDK layout, with at most one gzipped try per target', async () => {
      server = await startDialectServer(dialect);
      const stats = await logThroughDefaults(server.url);

      const refusesGzip = dialect !== 'gzip';
      for (const [p, uuid] of [CHECKOUT, BILLING].entries()) {
        const path = `/u/alice/resources/${uuid}/logs/`;
        const toTarget = server.requests.filter((r) => r.path === path);
        const taken = toTarget.filter((r) => r.status < 300);
        const messages = taken.flatMap((r) => r.body.logs.map((log) => log.message));
        expect(messages).toEqual(Array.from({ length: PER_TARGET }, (_, i) => `record ${p}-${i}`));
        expect(taken.length).toBeGreaterThan(3);
        for (const log of taken.flatMap((r) => r.body.logs))
          expect(sdkShapeProblem(log)).toBeUndefined();

        const gzipped = toTarget.filter((r) => r.gzipped);
        if (refusesGzip) {
          expect(gzipped).toHaveLength(1);
          expect(gzipped[0]?.status).toBe(dialect === 'rfc7694' ? 415 : 400);
          // The refused batch went again as plain JSON under the same Idempotency-Key.
          const resent = toTarget[toTarget.indexOf(gzipped[0] as (typeof toTarget)[number]) + 1];
          expect(resent).toMatchObject({ gzipped: false, status: 200 });
          expect(resent?.idempotencyKey).toBe(gzipped[0]?.idempotencyKey);
          expect(stats.targets[`alice/${uuid}`]?.gzip).toBe(false);
        } else {
          expect(gzipped).toHaveLength(toTarget.length);
          expect(stats.targets[`alice/${uuid}`]?.gzip).toBe(true);
        }
      }
      expect(stats).toMatchObject({
        exported: 2 * PER_TARGET,
        dropped: { rejected: 0, retry_budget: 0 },
        encodingFallbacks: refusesGzip ? 2 : 0,
      });
    });
  });

  describe('forced compression', () => {
    it("'none' never gzips", async () => {
      server = await startDialectServer('plain-json');
      const exporter = create({
        baseUrl: server.url,
        apiKey: 'test-key-000000000001',
        resource: `${server.url}/u/alice/resources/${CHECKOUT}/`,
        compression: 'none',
      });
      const provider = new LoggerProvider({
        processors: [new BatchLogRecordProcessor({ exporter })],
      });
      provider.getLogger('x').emit({ body: 'plain' });
      await provider.shutdown();
      expect(server.requests.map((r) => [r.gzipped, r.status])).toEqual([[false, 200]]);
    });

    it("'gzip' never falls back: a refusal is a rejected batch", async () => {
      server = await startDialectServer('rfc7694');
      const exporter = create({
        baseUrl: server.url,
        apiKey: 'test-key-000000000001',
        resource: `${server.url}/u/alice/resources/${CHECKOUT}/`,
        compression: 'gzip',
      });
      const provider = new LoggerProvider({
        processors: [new BatchLogRecordProcessor({ exporter })],
      });
      provider.getLogger('x').emit({ body: 'zipped' });
      await provider.forceFlush();
      expect(server.requests.map((r) => [r.gzipped, r.status])).toEqual([[true, 415]]);
      expect(exporter.getStats().dropped.rejected).toBe(1);
      await provider.shutdown();
    });
  });
});
