import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One request as the test server saw it, body decompressed and parsed. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  rawBytes: number;
  body: any;
}

/** What the server does with a request: answer, reset the socket, or never answer. */
export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMillis?: number }
  | { reset: true }
  | { stall: true };

export type Responder = (request: ReceivedRequest, index: number) => Reply;

/** Answers every ingest with 202 and an acknowledgement of all records. */
export const accept: Responder = (request) => ({
  status: 202,
  body: { accepted: request.body?.logs?.length ?? 1, rejected: 0, request_id: 'r', errors: [] },
});

/**
 * A real HTTP server on 127.0.0.1, port 0, for component tests (as undici's and ky's tests do).
 * `respond` decides each answer; every request is recorded in `requests`.
 */
export async function startIngestServer(respond: Responder = accept) {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  let responder = respond;
  const active = new Map<string, number>();
  const maxActive = new Map<string, number>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text =
        req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString() : raw.toString();
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBytes: raw.length,
        body: text ? JSON.parse(text) : undefined,
      };
      const index = requests.push(received) - 1;
      const now = (active.get(received.path) ?? 0) + 1;
      active.set(received.path, now);
      maxActive.set(received.path, Math.max(now, maxActive.get(received.path) ?? 0));
      res.on('close', () => active.set(received.path, (active.get(received.path) ?? 1) - 1));
      const reply = responder(received, index);
      if ('reset' in reply) {
        req.socket.destroy();
        return;
      }
      if ('stall' in reply) return;
      const answer = () => {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      };
      if (reply.delayMillis) setTimeout(answer, reply.delayMillis);
      else answer();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Ingest requests only (POST), in arrival order. */
    ingests: () => requests.filter((r) => r.method === 'POST'),
    /** Most requests to `path` that were open at the same time. */
    maxConcurrent: (path: string) => maxActive.get(path) ?? 0,
    setResponder(next: Responder) {
      responder = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type IngestServer = Awaited<ReturnType<typeof startIngestServer>>;
