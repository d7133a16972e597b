import { describe, expect, it } from 'vitest';
import {
  CircuitOpenError,
  type DropEvent,
  HttpError,
  RejectedRecordsError,
} from '../../src/index.js';
import { CHECKOUT, cleanUpAfterEach } from '../helpers/component.js';
import { type IngestServer, startIngestServer } from '../helpers/ingest-server.js';
import { PIPELINES, type Pipeline } from '../helpers/pipelines.js';
import { exportOnce, logRecord } from '../helpers/records.js';

const API_KEY = 'alice-secret-key-0000000001';

let server: IngestServer;
let exporter: Pipeline | undefined;
cleanUpAfterEach(() => ({ exporter, server }));

describe.each(PIPELINES)('$name', ({ create }) => {
  function newExporter(drops: DropEvent[] = []) {
    exporter = create({
      baseUrl: server.url,
      apiKey: API_KEY,
      username: 'alice',
      resource: CHECKOUT,
      onDrop: (event) => drops.push(event),
    });
    return exporter;
  }

  describe('permanent failures', () => {
    it.each([
      [401, 'unauthorized'],
      [403, 'forbidden'],
      [404, 'invalid_resource'],
      [400, 'invalid_body'],
    ])(
      'drops the batch as rejected on %i, with the server error code, without retrying',
      async (status, code) => {
        // The service echoes the key back in its message: it must not reach any error we report.
        server = await startIngestServer(() => ({
          status,
          body: { error: { code, message: `no access with key ${API_KEY}`, request_id: 'r1' } },
        }));
        const drops: DropEvent[] = [];
        const result = await exportOnce(newExporter(drops), [logRecord(), logRecord()]);

        // A 400 to a gzipped body may mean the service could not read gzip: the batch goes once
        // more as plain JSON (compression 'auto'), and is dropped when that is refused too.
        expect(server.ingests()).toHaveLength(status === 400 ? 2 : 1);
        // Queued at once; the refusal is counted when the batch is sent.
        expect(result.code).toBe(0);
        expect(drops).toEqual([
          expect.objectContaining({
            reason: 'rejected',
            count: 2,
            target: `alice/${CHECKOUT}`,
            error: expect.objectContaining({ statusCode: status, serverCode: code }),
          }),
        ]);
        expect(exporter?.getStats()).toMatchObject({
          dropped: { rejected: 2 },
          retried: 0,
          targets: { [`alice/${CHECKOUT}`]: { exported: 0, dropped: 2, lastStatus: status } },
        });
        const reported = `${drops[0]?.error?.message} ${JSON.stringify(drops)}`;
        expect(reported).toContain('[REDACTED]');
        expect(reported).not.toContain(API_KEY);
      },
    );

    it('counts the records a 202 reports as rejected', async () => {
      server = await startIngestServer((request) => ({
        status: 202,
        body: {
          accepted: request.body.logs.length - 1,
          rejected: 1,
          request_id: 'r',
          errors: [{ index: 1, code: 'invalid_level', message: 'level "loud" is not a level' }],
        },
      }));
      const drops: DropEvent[] = [];
      const result = await exportOnce(newExporter(drops), [logRecord(), logRecord(), logRecord()]);

      expect(result.code).toBe(0);
      expect(exporter?.getStats()).toMatchObject({ exported: 2, dropped: { rejected: 1 } });
      // A partial acknowledgement is not an HTTP error: it says which records were refused.
      expect(drops[0]).toMatchObject({
        reason: 'rejected',
        count: 1,
        error: {
          code: 'RESLOG_RECORDS_REJECTED',
          statusCode: 202,
          rejected: 1,
          errors: [{ index: 1, code: 'invalid_level', message: 'level "loud" is not a level' }],
        },
      });
      expect(drops[0]?.error).toBeInstanceOf(RejectedRecordsError);
      expect(drops[0]?.error).not.toBeInstanceOf(HttpError);
    });

    it("scrubs the API key from a 202's per-record errors", async () => {
      server = await startIngestServer((request) => ({
        status: 202,
        body: {
          accepted: request.body.logs.length - 1,
          rejected: 1,
          errors: [{ index: 0, code: 'invalid_level', message: `bad level, key ${API_KEY}` }],
        },
      }));
      const drops: DropEvent[] = [];
      await exportOnce(newExporter(drops), [logRecord(), logRecord()]);

      const error = drops[0]?.error as RejectedRecordsError;
      expect(error.errors).toEqual([
        { index: 0, code: 'invalid_level', message: 'bad level, key [REDACTED]' },
      ]);
      expect(`${error.message} ${JSON.stringify(drops)}`).not.toContain(API_KEY);
    });

    it('pauses a target after repeated permanent failures instead of hammering the service', async () => {
      server = await startIngestServer(() => ({
        status: 401,
        body: { error: { code: 'unauthorized', message: 'no' } },
      }));
      const drops: DropEvent[] = [];
      newExporter(drops);
      for (let i = 0; i < 5; i++) await exportOnce(exporter as Pipeline, [logRecord()]);

      expect(server.ingests()).toHaveLength(3);
      expect(drops.map((d) => d.error?.code)).toEqual([
        'RESLOG_HTTP_ERROR',
        'RESLOG_HTTP_ERROR',
        'RESLOG_HTTP_ERROR',
        'RESLOG_CIRCUIT_OPEN',
        'RESLOG_CIRCUIT_OPEN',
      ]);
      // What the breaker holds back is counted apart from what the service refused.
      expect(exporter?.getStats().dropped).toMatchObject({ rejected: 3, circuit_open: 2 });
      expect(drops.map((d) => d.reason)).toEqual([
        'rejected',
        'rejected',
        'rejected',
        'circuit_open',
        'circuit_open',
      ]);
      expect(drops[3]?.error).toBeInstanceOf(CircuitOpenError);
    });
  });

  describe('unmapped records and shutdown', () => {
    it("drops unmapped records and still succeeds with unmapped: 'drop'", async () => {
      server = await startIngestServer();
      const drops: DropEvent[] = [];
      exporter = create({
        baseUrl: server.url,
        apiKey: API_KEY,
        username: 'alice',
        routes: [{ match: { 'service.name': 'checkout' }, resource: CHECKOUT }],
        onDrop: (event) => drops.push(event),
      });
      const stray = logRecord({ resource: { attributes: { 'service.name': 'stray' } } });
      const result = await exportOnce(exporter, [logRecord(), stray]);

      expect(result.code).toBe(0);
      expect(server.ingests()).toHaveLength(1);
      expect(drops).toEqual([expect.objectContaining({ reason: 'unmapped', count: 1 })]);
      expect(exporter.getStats().dropped.unmapped).toBe(1);
    });

    it("fails the export on unmapped records with unmapped: 'error'", async () => {
      server = await startIngestServer();
      exporter = create({
        baseUrl: server.url,
        apiKey: API_KEY,
        username: 'alice',
        unmapped: 'error',
      });
      const result = await exportOnce(exporter, [logRecord()]);

      expect(result.code).toBe(1);
      expect(result.error).toMatchObject({
        code: 'RESLOG_EXPORT_FAILED',
        dropped: { unmapped: 1 },
      });
      expect(server.ingests()).toHaveLength(0);
    });

    it('delivers in-flight work on shutdown() and fails fast afterwards', async () => {
      server = await startIngestServer();
      newExporter();
      const pending = exportOnce(exporter as Pipeline, [logRecord()]);
      await exporter?.shutdown();
      expect((await pending).code).toBe(0);
      expect(server.ingests()).toHaveLength(1);

      const after = await exportOnce(exporter as Pipeline, [logRecord(), logRecord()]);
      expect(after.code).toBe(1);
      expect(after.error?.message).toMatch(/shutdown/);
      expect(exporter?.getStats().dropped.shutdown).toBe(2);
      expect(server.ingests()).toHaveLength(1);
    });
  });
});
