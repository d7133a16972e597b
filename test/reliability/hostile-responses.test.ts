import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportableLogRecord } from '../../src/exporter/otel-types.js';
import { ResourceLogExporter } from '../../src/index.js';

/**
 * The exporter against a broken or hostile service: invalid JSON, huge bodies, endless streams
 * (fast and trickling), redirects to another host, absurd Retry-After values. The host app
 * must never crash (no throw, no unhandled rejection: vitest fails on those), every export
 * must call back within its budget, the API key must never follow a redirect, and the heap
 * must not grow with the number of hostile answers.
 */
const KEY = 'hostile-test-key-58c2f0a9e1d3';
const UUID = '77777777-7777-4777-8777-777777777777';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  // A count, not the requests: keeping them would be this test's own leak.
  const seen = { length: 0 };
  const server = createServer((req, res) => {
    seen.length++;
    req.resume();
    req.on('end', () => handler(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen };
}

const record: ExportableLogRecord = {
  hrTime: [1_795_234_527, 0],
  hrTimeObserved: [1_795_234_527, 0],
  severityNumber: 9,
  body: 'hostile',
  resource: { attributes: { 'service.name': 'hostile' } },
  instrumentationScope: { name: 'hostile' },
  attributes: {},
};

function exporterFor(
  url: string,
  options: { maxBacklogAgeMillis?: number; timeoutMillis?: number } = {},
) {
  return new ResourceLogExporter({
    baseUrl: url,
    apiKey: KEY,
    username: 'alice',
    resource: UUID,
    maxBacklogAgeMillis: options.maxBacklogAgeMillis ?? 2000,
    timeoutMillis: options.timeoutMillis ?? 500,
  });
}

/** Exports one record and waits until it was delivered or dropped, within `limitMillis`. */
async function exportTimed(exporter: ResourceLogExporter, limitMillis: number) {
  const started = Date.now();
  const result = await new Promise<{ code: number; error?: Error }>((resolve) =>
    exporter.export([record], resolve),
  );
  await exporter.forceFlush();
  expect(Date.now() - started).toBeLessThan(limitMillis);
  expect(exporter.getStats().backlog.batches).toBe(0);
  return result;
}

describe('exporter against hostile answers', () => {
  it('a 202 with invalid JSON counts as accepted (documented), without a throw', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end('{"accepted": 1, "rejected":');
    });
    const exporter = exporterFor(url);
    expect((await exportTimed(exporter, 2000)).code).toBe(0);
    expect(exporter.getStats().exported).toBe(1);
    await exporter.shutdown();
  });

  it('huge and endless answers are read up to 64 KiB; the heap does not grow with them', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const { url } = await serve((req, res) => {
      const endless = req.url?.includes('endless');
      // Retry-After past the batch's age bound: one attempt per export, so the test stays fast.
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      if (!endless) {
        res.end(Buffer.alloc(4 * 1024 * 1024, 0x61));
        return;
      }
      // Writes as fast as the socket takes it, forever (until the client goes away).
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    const huge = exporterFor(url, { maxBacklogAgeMillis: 400 });
    const endless = exporterFor(`${url}/endless`, { maxBacklogAgeMillis: 400 });
    const round = async () => {
      for (let i = 0; i < 5; i++) {
        await exportTimed(huge, 3000);
        await exportTimed(endless, 3000);
      }
    };
    await round();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 20; i++) await round();
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown).toBeLessThan(8 * 1024 * 1024);
    expect(huge.getStats().dropped.expired).toBe(105);
    expect(endless.getStats().dropped.expired).toBe(105);
    await huge.shutdown();
    await endless.shutdown();
  });

  it('a trickling answer that never ends is cut by timeoutMillis and retried within the budget', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.write('{"accepted":');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
    });
    const exporter = exporterFor(url, { timeoutMillis: 300, maxBacklogAgeMillis: 1500 });
    await exportTimed(exporter, 2500);
    expect(exporter.getStats().dropped.expired).toBe(1);
    expect(seen.length).toBeGreaterThan(1);
    await exporter.shutdown();
  });

  it.each([301, 302, 303, 307, 308])(
    'a %i redirect is not followed: the key never reaches the other host',
    async (status) => {
      const elsewhere = await serve((_req, res) => res.writeHead(202).end('{"accepted":1}'));
      const { url } = await serve((_req, res) => {
        res.writeHead(status, { location: `${elsewhere.url}/steal` });
        res.end();
      });
      const exporter = exporterFor(url);
      await exportTimed(exporter, 2500);
      expect(exporter.getStats().dropped.rejected).toBe(1);
      expect(elsewhere.seen).toHaveLength(0);
      await exporter.shutdown();
    },
  );

  it('absurd Retry-After values neither hang the export nor throw', async () => {
    let n = 0;
    const values = ['999999999', '-1', 'soon', 'Fri, 31 Dec 9999 23:59:59 GMT', '1e400', ''];
    const { url } = await serve((_req, res) => {
      res.writeHead(503, { 'retry-after': values[n++ % values.length] as string });
      res.end();
    });
    const exporter = exporterFor(url, { maxBacklogAgeMillis: 1000 });
    for (let i = 0; i < values.length; i++) await exportTimed(exporter, 2000);
    expect(exporter.getStats().dropped.expired).toBe(values.length);
    await exporter.shutdown();
  });

  it('a connection closed in the middle of the answer head is a retryable network error', async () => {
    const { url } = await serve((req) => {
      req.socket.end('HTTP/1.1 202 Accep');
    });
    const drops: string[] = [];
    const exporter = new ResourceLogExporter({
      baseUrl: url,
      apiKey: KEY,
      username: 'alice',
      resource: UUID,
      maxBacklogAgeMillis: 800,
      onDrop: (event) => drops.push(`${event.error?.message} ${event.error?.stack}`),
    });
    await exportTimed(exporter, 2000);
    expect(exporter.getStats().retried).toBeGreaterThan(0);
    expect(exporter.getStats().dropped.expired).toBe(1);
    expect(drops.join('\n')).not.toContain(KEY);
    await exporter.shutdown();
  });
});
