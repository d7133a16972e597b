import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReceiverOptions } from '../../src/receiver/index.js';
import {
  admin,
  BOB_PRIVATE,
  CHECKOUT,
  ingestPath,
  KEYS,
  post,
  readLogs,
  receiver,
} from './fixtures.js';

/** A follow stream read line by line through fetch(), as the console reads it. */
interface Stream {
  status: number;
  headers: Headers;
  /** The next line (without its newline); waits for it. */
  line(): Promise<string>;
  /** The next non-empty line parsed as JSON. */
  log(): Promise<Record<string, unknown>>;
  /** Resolves when the server ended the stream (cleanly or not). */
  ended: Promise<void>;
  close(): void;
}

async function follow(url: string, headers: Record<string, string>): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  let ended!: () => void;
  const endedPromise = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const line = async (): Promise<string> => {
    for (;;) {
      const at = buffer.indexOf('\n');
      if (at >= 0) {
        const text = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        return text;
      }
      if (done) throw new Error('stream ended');
      try {
        const chunk = await reader.read();
        if (chunk.done) done = true;
        else buffer += decoder.decode(chunk.value, { stream: true });
      } catch {
        done = true;
      }
      if (done) ended();
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    line,
    async log() {
      for (;;) {
        const text = await line();
        if (text !== '') return JSON.parse(text) as Record<string, unknown>;
      }
    },
    ended: endedPromise,
    close: () => abort.abort(),
  };
}

// Through inject: a fetch() here could leave undici a spare socket that app.close() waits for.
const metric = async (app: FastifyInstance, name: string) => {
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
};

/** Reads (heartbeats, logs) until the server ends the stream; the lines it read. */
async function readToEnd(stream: Stream): Promise<string[]> {
  const lines: string[] = [];
  for (;;) {
    try {
      lines.push(await stream.line());
    } catch {
      await stream.ended;
      return lines;
    }
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('GET .../logs/?follow=true', () => {
  let app: FastifyInstance;
  let url: string;
  const streams: Stream[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await app?.close();
  });

  async function start(options: ReceiverOptions = {}) {
    app = receiver(options);
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  }
  async function open(query = '', headers: Record<string, string> = { 'x-api-key': KEYS.alice }) {
    const stream = await follow(`${url}${ingestPath()}?follow=true${query}`, headers);
    streams.push(stream);
    return stream;
  }

  it('sends records committed after it started, as NDJSON, in the read API shape, within a second', async () => {
    await start();
    await post(app, { message: 'before' });
    const stream = await open();
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const sent = Date.now();
    await post(app, { logs: [{ message: 'one', logger: 'checkout.http' }, { message: 'two' }] });
    const one = await stream.log();
    const two = await stream.log();
    expect(Date.now() - sent).toBeLessThan(1000);
    expect([one.message, two.message]).toEqual(['one', 'two']);
    expect(two.id).toBeGreaterThan(one.id as number);
    const page = (await readLogs(app, '?order=asc')).json().logs;
    expect(one).toEqual(page[1]);
  });

  it('applies level, logger, q and trace_id on the stream', async () => {
    await start();
    const stream = await open('&level=warning&logger=checkout.*&q=DISK');
    await post(app, {
      logs: [
        { level: 'error', message: 'disk full', logger: 'billing' },
        { level: 'info', message: 'disk full', logger: 'checkout' },
        { level: 'error', message: 'cpu hot', logger: 'checkout.db' },
        { level: 'warning', message: 'Disk almost full', logger: 'checkout' },
        { level: 'critical', message: 'disk gone', logger: 'checkout.db.pool' },
        { level: 'critical', message: 'disk gone', logger: 'checkoutx' },
      ],
    });
    expect((await stream.log()).message).toBe('Disk almost full');
    expect((await stream.log()).logger).toBe('checkout.db.pool');
    await post(app, { level: 'error', message: 'disk again', logger: 'checkout.http' });
    expect((await stream.log()).message).toBe('disk again');
  });

  it('after_id continues a loaded page without a gap; tail sends the newest N first', async () => {
    await start();
    await post(app, {
      logs: [{ message: 'a' }, { message: 'b', level: 'error' }, { message: 'c' }],
    });
    const page = (await readLogs(app, '?limit=1')).json().logs;
    await post(app, { message: 'd' }); // after the page was read, before following
    const resumed = await open(`&after_id=${page[0].id}`);
    expect((await resumed.log()).message).toBe('d');

    const tailed = await open('&tail=2');
    expect([(await tailed.log()).message, (await tailed.log()).message]).toEqual(['c', 'd']);
    const errors = await open('&tail=5&level=error');
    expect((await errors.log()).message).toBe('b');
    await post(app, { message: 'e', level: 'error' });
    expect((await tailed.log()).message).toBe('e');
    expect((await errors.log()).message).toBe('e');
  });

  it('speaks server-sent events with Accept: text/event-stream; Last-Event-ID resumes', async () => {
    await start();
    const headers = { 'x-api-key': KEYS.alice, accept: 'text/event-stream' };
    const stream = await open('', headers);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await post(app, { logs: [{ message: 'one' }, { message: 'two' }] });
    const id = await stream.line();
    expect(id).toMatch(/^id: \d+$/);
    expect(await stream.line()).toBe('event: log');
    const data = await stream.line();
    expect(JSON.parse(data.slice('data: '.length)).message).toBe('one');
    expect(await stream.line()).toBe('');
    const first = Number(id.slice(4));
    const resumed = await open('&after_id=0', { ...headers, 'last-event-id': String(first) });
    await resumed.line();
    await resumed.line();
    expect(JSON.parse((await resumed.line()).slice(6)).message).toBe('two');
  });

  it('sends heartbeats while idle: an empty NDJSON line, an SSE comment; outlives the request timeout', async () => {
    await start({ limits: { followHeartbeatMillis: 50, requestTimeoutMillis: 300 } });
    const ndjson = await open();
    const sse = await open('', { 'x-api-key': KEYS.alice, accept: 'text/event-stream' });
    const started = Date.now();
    for (let i = 0; i < 10; i++) expect(await ndjson.line()).toBe('');
    expect(await sse.line()).toBe(': heartbeat');
    await until(() => Date.now() - started > 400, 'the request timeout to pass');
    await post(app, { message: 'still here' });
    expect((await ndjson.log()).message).toBe('still here');
  });

  it('ends cleanly when the client goes away: unsubscribed, gauge back to zero', async () => {
    await start();
    let subscribed = 0;
    const events = app.receiver.events;
    const subscribe = events.subscribe.bind(events);
    vi.spyOn(events, 'subscribe').mockImplementation((id, listener) => {
      subscribed++;
      const off = subscribe(id, listener);
      return () => {
        subscribed--;
        off();
      };
    });
    const streams = [await open(), await open('&level=error')];
    await until(() => subscribed === 2, 'two subscriptions');
    expect(await metric(app, 'reslog_receiver_followers')).toBe(2);
    for (const stream of streams) stream.close();
    await until(() => subscribed === 0, 'both to unsubscribe');
    expect(await metric(app, 'reslog_receiver_followers')).toBe(0);
    expect((await post(app, { message: 'nobody listens' })).statusCode).toBe(202);
  });

  it('app.close() ends open follow streams instead of waiting for them', async () => {
    await start();
    const stream = await open();
    await post(app, { message: 'one' });
    await stream.log();
    const started = Date.now();
    await app.close();
    await expect(stream.line()).rejects.toThrow('stream ended');
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('does not hold an in-flight slot: ingest is answered while followers stay open', async () => {
    await start({ limits: { maxInFlight: 1, maxQueuedRequests: 0 } });
    await open();
    await open('&tail=10');
    expect((await post(app, { message: 'through' })).statusCode).toBe(202);
  });

  it('cuts off a client that does not read, counts it, and ingest never waits', async () => {
    await start({ limits: { maxFollowBufferBytes: 64 * 1024, followHeartbeatMillis: 100 } });
    // A client that reads the headers and then nothing more.
    const request = httpRequest(`${url}${ingestPath()}?follow=true`, {
      headers: { 'x-api-key': KEYS.alice },
    });
    const closed = new Promise<void>((resolve) => request.on('close', resolve));
    request.on('error', () => {});
    const response = await new Promise<import('node:http').IncomingMessage>((resolve) => {
      request.on('response', resolve);
      request.end();
    });
    response.pause();
    response.on('error', () => {});
    const big = 'x'.repeat(16 * 1024);
    // Far more than the socket buffers on both ends hold.
    for (let i = 0; i < 40; i++) {
      const started = Date.now();
      const answer = await post(app, {
        logs: Array.from({ length: 50 }, () => ({ message: big })),
      });
      expect(answer.statusCode).toBe(202);
      expect(Date.now() - started).toBeLessThan(1000);
    }
    await until(
      async () => (await metric(app, 'reslog_receiver_follow_cut_total')) === 1,
      'the cut',
    );
    expect(await metric(app, 'reslog_receiver_followers')).toBe(0);
    response.destroy();
    await closed;
  });

  it('follows a team resource under /team/{team}/resources', async () => {
    await start();
    const json = { 'x-api-key': KEYS.alice, 'content-type': 'application/json' };
    await app.inject({
      method: 'POST',
      url: '/api/teams',
      headers: json,
      payload: { name: 'devops' },
    });
    const created = await app.inject({
      method: 'POST',
      url: '/api/teams/devops/resources',
      headers: json,
      payload: { name: 'Platform' },
    });
    const path = `/team/devops/resources/${created.json().uuid}/logs/`;
    const stream = await follow(`${url}${path}?follow=true&logger=platform.*`, {
      'x-api-key': KEYS.alice,
    });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await post(
      app,
      {
        logs: [
          { message: 'no', logger: 'web' },
          { message: 'yes', logger: 'platform.api' },
        ],
      },
      { path },
    );
    expect((await stream.log()).message).toBe('yes');
  });

  it('carries on after POST /_receiver/reset, whose ids start again', async () => {
    await start();
    await post(app, { logs: [{ message: 'a' }, { message: 'b' }, { message: 'c' }] });
    const stream = await open('&after_id=3');
    const reset = await app.inject({
      method: 'POST',
      url: '/_receiver/reset?reseed=true',
      headers: admin,
    });
    expect(reset.statusCode).toBe(200);
    await post(app, { message: 'after the reset' });
    const log = await stream.log();
    expect(log).toMatchObject({ id: 1, message: 'after the reset' });
  });

  it('ends within a heartbeat when the reader loses access; the other readers go on', async () => {
    await start({ limits: { followHeartbeatMillis: 100 } });
    const carol = await open('', { 'x-api-key': KEYS.carol });
    const alice = await open();
    await post(app, { message: 'for both' });
    expect((await carol.log()).message).toBe('for both');
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/resources/${CHECKOUT}/collaborators/carol`,
      headers: { 'x-api-key': KEYS.alice },
    });
    expect(removed.statusCode).toBe(204);
    const started = Date.now();
    expect((await readToEnd(carol)).every((line) => line === '')).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    await until(async () => (await metric(app, 'reslog_receiver_followers')) === 1, 'one left');
    await post(app, { message: 'for alice only' });
    expect((await alice.log()).message).toBe('for both');
    expect((await alice.log()).message).toBe('for alice only');
  });

  it('ends at once when the resource is deleted, well before the next heartbeat', async () => {
    await start({ limits: { followHeartbeatMillis: 60_000 } });
    const stream = await open();
    await post(app, { message: 'last words' });
    expect((await stream.log()).message).toBe('last words');
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/resources/${CHECKOUT}`,
      headers: { 'x-api-key': KEYS.alice },
    });
    expect(deleted.statusCode).toBe(204);
    const started = Date.now();
    expect(await readToEnd(stream)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await metric(app, 'reslog_receiver_followers')).toBe(0);
  });

  it('answers errors as JSON before streaming: auth, visibility, bad parameters', async () => {
    await start();
    const get = (path: string, headers: Record<string, string> = { 'x-api-key': KEYS.alice }) =>
      app.inject({ method: 'GET', url: path, headers });
    expect((await get(`${ingestPath()}?follow=true`, {})).json().error.code).toBe(
      'missing_api_key',
    );
    const stranger = await get(`${ingestPath()}?follow=true`, { 'x-api-key': KEYS.mallory });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.code).toBe('invalid_resource');
    const other = await get(`${ingestPath(BOB_PRIVATE, 'bob')}?follow=true`, {
      'x-api-key': KEYS.carol,
    });
    expect(other.statusCode).toBe(404);
    expect((await get(`${ingestPath()}?follow=true&tail=1001`)).statusCode).toBe(400);
    expect((await get(`${ingestPath()}?after_id=3`)).json().error.code).toBe('invalid_request');
    expect((await get(`${ingestPath()}?follow=true&cursor=abc`)).statusCode).toBe(400);
    const badId = await get(`${ingestPath()}?follow=true`, {
      'x-api-key': KEYS.alice,
      'last-event-id': 'x',
    });
    expect(badId.statusCode).toBe(400);
  });
});
