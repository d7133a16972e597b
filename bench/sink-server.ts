/**
 * The no-op HTTP sink, run in its own process: it reads each request, gunzips it when asked,
 * parses the JSON, counts the records (reslog `logs[]`, OTLP `logRecords`) and answers as the
 * real peer would (202 `{"accepted":N,"rejected":0}`, OTLP 200 `{}`). It stores nothing, so it
 * is also the ceiling for the receiver in scenario 4. Counters: `GET /_bench/stats`,
 * `POST /_bench/reset`. Usage: forked by bench/run.ts; sends `{type:'ready', url}`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';

let counters = { requests: 0, records: 0, wireBytes: 0, jsonBytes: 0, errors: 0 };
const cpuAtStart = process.cpuUsage();

function countRecords(url: string, body: unknown): number {
  if (url.endsWith('/v1/logs')) {
    let count = 0;
    const request = body as {
      resourceLogs?: Array<{ scopeLogs?: Array<{ logRecords?: unknown[] }> }>;
    };
    for (const resourceLogs of request.resourceLogs ?? []) {
      for (const scopeLogs of resourceLogs.scopeLogs ?? [])
        count += scopeLogs.logRecords?.length ?? 0;
    }
    return count;
  }
  const logs = (body as { logs?: unknown }).logs;
  return Array.isArray(logs) ? logs.length : 1;
}

function reply(response: ServerResponse, status: number, json: string): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(json),
  });
  response.end(json);
}

function handle(request: IncomingMessage, response: ServerResponse, raw: Buffer): void {
  const url = request.url ?? '/';
  if (url === '/_bench/stats') {
    const cpu = process.cpuUsage(cpuAtStart);
    reply(
      response,
      200,
      JSON.stringify({ ...counters, cpuMillis: (cpu.user + cpu.system) / 1000 }),
    );
    return;
  }
  if (url === '/_bench/reset') {
    counters = { requests: 0, records: 0, wireBytes: 0, jsonBytes: 0, errors: 0 };
    reply(response, 200, '{}');
    return;
  }
  try {
    const json = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
    const count = countRecords(url, JSON.parse(json.toString('utf8')));
    counters.requests++;
    counters.records += count;
    counters.wireBytes += raw.length;
    counters.jsonBytes += json.length;
    if (url.endsWith('/v1/logs')) reply(response, 200, '{}');
    else reply(response, 202, `{"accepted":${count},"rejected":0}`);
  } catch (error) {
    counters.errors++;
    reply(
      response,
      400,
      JSON.stringify({ error: { code: 'bad_request', message: String(error) } }),
    );
  }
}

const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => handle(request, response, Buffer.concat(chunks)));
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
