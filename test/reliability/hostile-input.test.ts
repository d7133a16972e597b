import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT, KEYS, receiver } from '../receiver/fixtures.js';

/**
 * Hostile clients against a listening receiver (real sockets, so Node's HTTP parser and the
 * server timeouts take part): oversize and gzip bombs, deep nesting, prototype-pollution keys,
 * invalid UTF-8, huge headers and slowloris clients, cut off by the documented timeouts
 * (set short here: headersTimeoutMillis 1000, requestTimeoutMillis 2000).
 */
const HEADERS_TIMEOUT = 1000;
const REQUEST_TIMEOUT = 2000;
const PATH = `/u/alice/resources/${CHECKOUT}/logs/`;

let app: FastifyInstance;
let port: number;
const sockets: Socket[] = [];
const timers: NodeJS.Timeout[] = [];

beforeAll(async () => {
  app = receiver({
    limits: {
      maxBodyBytes: 256 * 1024,
      headersTimeoutMillis: HEADERS_TIMEOUT,
      requestTimeoutMillis: REQUEST_TIMEOUT,
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  for (const socket of sockets) socket.destroy();
  await app?.close();
});

const count = () =>
  (app.receiver.store.db.prepare('SELECT COUNT(*) AS n FROM logs').get() as { n: number }).n;

/** Raw HTTP/1.1 over a socket: resolves with what the server sent and when it closed. */
function rawExchange(
  write: (socket: Socket) => void,
  limitMillis = 15_000,
): Promise<{ text: string; millis: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let text = '';
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`server did not close the connection within ${limitMillis} ms`));
    }, limitMillis);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(guard);
      resolve({ text, millis: Date.now() - started });
    });
    socket.on('connect', () => write(socket));
  });
}

const head = (extra: Record<string, string | number>) =>
  `POST ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${KEYS.alice}\r\nContent-Type: application/json\r\nConnection: close\r\n${Object.entries(
    extra,
  )
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

async function postRaw(body: Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${port}${PATH}`, {
    method: 'POST',
    headers: { 'x-api-key': KEYS.alice, 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

describe('hostile clients over real sockets', () => {
  it('oversize bodies: 413 by Content-Length and by chunked stream, nothing stored', async () => {
    const before = count();
    const big = Buffer.from(JSON.stringify({ message: 'x'.repeat(300 * 1024) }));
    const sized = await postRaw(big);
    expect(sized.status).toBe(413);
    expect(sized.json.error.code).toBe('payload_too_large');
    // Chunked: no Content-Length, the limit is applied while reading.
    const chunked = await rawExchange((socket) => {
      socket.write(head({ 'Transfer-Encoding': 'chunked' }));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let i = 0; i < 6; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      socket.write('0\r\n\r\n');
    });
    expect(chunked.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(count()).toBe(before);
  });

  it('gzip bomb: 413 once inflation passes the limit, quickly, nothing stored', async () => {
    const before = count();
    const bomb = gzipSync(Buffer.alloc(200 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(256 * 1024);
    const started = Date.now();
    const response = await postRaw(bomb, { 'content-encoding': 'gzip' });
    expect(response.status).toBe(413);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(count()).toBe(before);
  });

  it('deep nesting: 100 000 levels reject that record alone (nesting_too_deep), nothing stored', async () => {
    const before = count();
    const text = `{"logs":[{"attributes":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}]}`;
    const response = await postRaw(Buffer.from(text));
    expect(response.status).toBe(202);
    expect(response.json).toMatchObject({
      accepted: 0,
      rejected: 1,
      errors: [{ index: 0, code: 'nesting_too_deep' }],
    });
    expect(count()).toBe(before);
    const envelope = `{"resource":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}},"logs":[{}]}`;
    const refused = await postRaw(Buffer.from(envelope));
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('nesting_too_deep');
    expect(count()).toBe(before);
  });

  it('prototype-pollution keys are stored as data or dropped, never reach a prototype', async () => {
    const text =
      '{"__proto__":{"polluted":1},"logs":[{"message":"proto","attributes":{"__proto__":{"polluted":2},"constructor":{"prototype":{"polluted":3}}},"extra":{"__proto__":{"isAdmin":true}}}]}';
    const response = await postRaw(Buffer.from(text));
    expect(response.status).toBe(202);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    const read = await fetch(`http://127.0.0.1:${port}${PATH}?q=proto`, {
      headers: { 'x-api-key': KEYS.alice },
    });
    const [log] = ((await read.json()) as { logs: Record<string, any>[] }).logs;
    expect(Object.hasOwn(log?.attributes, '__proto__')).toBe(false);
    expect(log?.attributes.constructor).toEqual({ prototype: { polluted: 3 } });
    expect(log?.extra).toEqual({});
  });

  it('invalid UTF-8 is stored as U+FFFD or refused, never a 5xx', async () => {
    for (const bad of [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff]]) {
      const body = Buffer.concat([
        Buffer.from('{"message":"bad '),
        Buffer.from(bad),
        Buffer.from(' utf8"}'),
      ]);
      const response = await postRaw(body);
      expect(response.status).toBe(202);
    }
    const read = await fetch(`http://127.0.0.1:${port}${PATH}?q=utf8&limit=10`, {
      headers: { 'x-api-key': KEYS.alice },
    });
    for (const log of ((await read.json()) as { logs: { message: string }[] }).logs) {
      expect(log.message).toMatch(/^bad \uFFFD+ utf8$/);
    }
  });

  it('huge header values: 431 from the HTTP parser, the server keeps serving', async () => {
    const huge = await rawExchange((socket) => {
      socket.write(head({ 'X-Padding': 'a'.repeat(64 * 1024), 'Content-Length': 2 }));
      socket.write('{}');
    });
    expect(huge.text).toMatch(/^HTTP\/1\.1 431 /);
    const live = await fetch(`http://127.0.0.1:${port}/_receiver/health/live`);
    expect(live.status).toBe(200);
  });

  it('slowloris headers: the connection is closed once headersTimeoutMillis passes', async () => {
    const before = count();
    const result = await rawExchange((socket) => {
      const text = head({ 'Content-Length': 2 });
      let i = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || i >= text.length - 4) return clearInterval(timer);
        socket.write(text[i++] as string);
      }, 100);
      timers.push(timer);
    });
    expect(result.millis).toBeGreaterThanOrEqual(HEADERS_TIMEOUT - 100);
    expect(result.millis).toBeLessThan(HEADERS_TIMEOUT + 3000);
    expect(result.text).toMatch(/^$|^HTTP\/1\.1 408 /);
    expect(count()).toBe(before);
  });

  it('slowloris body: 408 once requestTimeoutMillis passes, nothing stored', async () => {
    const before = count();
    const result = await rawExchange((socket) => {
      socket.write(head({ 'Content-Length': 10_000 }));
      socket.write('{"message":"');
      const timer = setInterval(() => {
        if (socket.destroyed) return clearInterval(timer);
        socket.write('x');
      }, 100);
      timers.push(timer);
    });
    expect(result.millis).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 100);
    expect(result.millis).toBeLessThan(REQUEST_TIMEOUT + 3000);
    expect(result.text).toMatch(/^$|^HTTP\/1\.1 408 /);
    expect(count()).toBe(before);
  });

  it('after all of that the receiver is ready and ingests normally', async () => {
    const response = await postRaw(Buffer.from('{"message":"still here"}'));
    expect(response.status).toBe(202);
    expect((await fetch(`http://127.0.0.1:${port}/_receiver/health/ready`)).status).toBe(200);
  });
});
