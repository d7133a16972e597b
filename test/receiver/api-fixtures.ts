import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** An API-key request to the management API through `app.inject`. */
export function api(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  key: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: { 'x-api-key': key },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/**
 * Polls `check` until it returns something truthy; throws after `timeoutMillis`. Bounded, and
 * used instead of sleeps: tests wait for the condition, not for a guessed duration.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { timeoutMillis = 15_000, intervalMillis = 5, what = 'condition' } = {},
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const deadline = performance.now() + timeoutMillis;
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMillis));
  }
}

export interface SinkRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
}

export interface Sink {
  url: string;
  /** Requests that got a 2xx answer, in arrival order. */
  received: SinkRequest[];
  /** Every request, whatever it was answered. */
  attempts: SinkRequest[];
  /** Status for each next request (then 200). */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1:0 standing in for webhook receivers and probed services. */
export async function startSink(port = 0): Promise<Sink> {
  const received: SinkRequest[] = [];
  const attempts: SinkRequest[] = [];
  const planned: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry = {
        path: request.url ?? '/',
        headers: request.headers,
        body,
        json: body === '' ? {} : (JSON.parse(body) as Record<string, unknown>),
      };
      attempts.push(entry);
      const status = planned.shift() ?? 200;
      if (status < 300) received.push(entry);
      response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    attempts,
    failNext: (...statuses) => planned.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Notifications of `key`'s account (newest first). */
export async function inbox(app: FastifyInstance, key: string, query = '') {
  const response = await api(app, 'GET', `/api/notifications${query}`, key);
  if (response.statusCode !== 200) throw new Error(`inbox answered ${response.statusCode}`);
  return response.json().notifications as Record<string, any>[];
}
