import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKOUT } from '../helpers/component.js';
import { createIdempotentStore } from '../helpers/idempotent-store.js';
import { type IngestServer, startIngestServer } from '../helpers/ingest-server.js';
import { PIPELINES } from '../helpers/pipelines.js';
import { exportQueued, logRecord } from '../helpers/records.js';

const API_KEY = 'alice-dev-key-0000000001';
let server: IngestServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function spoolDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reslog-spool-component-'));
  dirs.push(dir);
  return dir;
}

const records = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => logRecord({ body: `m${from + i}` }));

describe.each(PIPELINES)('$name', ({ create }) => {
  describe('disk spool', () => {
    it('what shutdown() could not send stays on disk, and the next exporter sends it under the same keys', async () => {
      const store = createIdempotentStore();
      let down = true;
      server = await startIngestServer(
        store.responder(() =>
          down ? { status: 503, headers: { 'retry-after': '60' } } : undefined,
        ),
      );
      const dir = spoolDir();
      const options = {
        baseUrl: server.url,
        apiKey: API_KEY,
        username: 'alice',
        resource: CHECKOUT,
        spoolDir: dir,
        shutdownTimeoutMillis: 200,
        maxBatchBytes: 2048,
      };
      const first = create(options);
      for (let i = 0; i < 4; i++)
        expect((await exportQueued(first, records(i * 10, 10))).code).toBe(0);
      const queued = first.getStats();
      expect(queued.backlog.batches).toBeGreaterThan(0);
      expect(queued.spool?.bytes).toBeGreaterThan(0);
      expect(queued.targets[`alice/${CHECKOUT}`]?.spoolBytes).toBeGreaterThan(0);
      await first.shutdown();
      // Left in the spool: not a loss, so not counted as dropped.
      expect(first.getStats().dropped.shutdown).toBe(0);
      const firstKeys = new Set(server.ingests().map((r) => r.headers['idempotency-key']));

      down = false;
      const second = create(options);
      await second.forceFlush();
      expect(store.messages()).toEqual(records(0, 40).map((r) => r.body));
      // The head batch the first exporter tried went again under its key: stored once.
      const replayed = server.ingests().filter((r) => firstKeys.has(r.headers['idempotency-key']));
      expect(replayed.length).toBeGreaterThan(1);
      expect(second.getStats()).toMatchObject({ exported: 40, backlog: { batches: 0 } });
      await second.shutdown();
      expect(second.getStats().spool?.bytes).toBe(0);
    });

    it('a spool directory that cannot be written degrades to the memory backlog, never a throw', async () => {
      const store = createIdempotentStore();
      server = await startIngestServer(store.responder(() => undefined));
      const file = join(spoolDir(), 'not-a-dir');
      await import('node:fs/promises').then((fs) => fs.writeFile(file, 'x'));
      const exporter = create({
        baseUrl: server.url,
        apiKey: API_KEY,
        username: 'alice',
        resource: CHECKOUT,
        spoolDir: join(file, 'spool'),
      });
      expect((await exportQueued(exporter, records(0, 5))).code).toBe(0);
      await exporter.forceFlush();
      expect(store.messages()).toEqual(records(0, 5).map((r) => r.body));
      await exporter.shutdown();
    });
  });
});
