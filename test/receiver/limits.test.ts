import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestPath, KEYS, post, readLogs, receiver } from './fixtures.js';

describe('error statuses and limits', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  it('400 for malformed JSON, wrong shapes and empty bodies', async () => {
    app = receiver();
    for (const body of ['{"logs": [', '"just a string"', '{"logs": {}}', '']) {
      const response = await post(app, body);
      expect(response.statusCode, body).toBe(400);
      expect(response.json().error).toMatchObject({
        code: expect.any(String),
        request_id: expect.any(String),
      });
    }
  });

  it('415 for bodies that are not JSON or use an unknown encoding', async () => {
    app = receiver();
    const text = await app.inject({
      method: 'POST',
      url: ingestPath(),
      headers: { 'x-api-key': KEYS.alice, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('unsupported_media_type');
    const none = await app.inject({
      method: 'POST',
      url: ingestPath(),
      headers: { 'x-api-key': KEYS.alice },
    });
    expect(none.statusCode).toBe(415);
    const br = await post(app, '{}', { headers: { 'content-encoding': 'br' } });
    expect(br.statusCode).toBe(415);
    expect(br.json().error.code).toBe('unsupported_encoding');
  });

  it('413 for bodies over the limit, before and after decompression (gzip bomb)', async () => {
    app = receiver({ limits: { maxBodyBytes: 64 * 1024 } });
    const big = JSON.stringify({ message: 'x'.repeat(70 * 1024) });
    const raw = await post(app, big);
    expect(raw.statusCode).toBe(413);
    expect(raw.json().error.code).toBe('payload_too_large');
    // 50 MiB of zeros gzip to ~50 KiB: under the wire limit, far over the inflated one.
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const started = process.hrtime.bigint();
    const response = await app.inject({
      method: 'POST',
      url: ingestPath(),
      headers: {
        'x-api-key': KEYS.alice,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      payload: bomb,
    });
    expect(response.statusCode).toBe(413);
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(5);
    expect(
      (await post(app, 'not gzip at all', { headers: { 'content-encoding': 'gzip' } })).statusCode,
    ).toBe(400);
  });

  it('413 too_many_records over the per-request record limit', async () => {
    app = receiver({ limits: { maxRecordsPerRequest: 3 } });
    const response = await post(app, { logs: [{}, {}, {}, {}] });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('too_many_records');
    expect((await post(app, { logs: [{}, {}, {}] })).statusCode).toBe(202);
  });

  it('rejects a record nested deeper than maxDepth alone; a too deep envelope is a 400', async () => {
    app = receiver({ limits: { maxDepth: 64 } });
    // The record counts as 1, attributes 2, "a"'s arrays 3 … n + 2.
    const record = (n: number) => `{"attributes":{"a":${'['.repeat(n)}${']'.repeat(n)}}}`;
    const ok = await post(app, `{"logs":[${record(62)}]}`);
    expect(ok.json()).toMatchObject({ accepted: 1, rejected: 0 });
    const mixed = await post(app, `{"logs":[${record(1)},${record(63)},${record(2)}]}`);
    expect(mixed.statusCode).toBe(202);
    expect(mixed.json()).toMatchObject({
      accepted: 2,
      rejected: 1,
      errors: [{ index: 1, code: 'nesting_too_deep' }],
    });
    // One record without an envelope (curl) is that record.
    const single = await post(app, record(63));
    expect(single.json()).toMatchObject({
      accepted: 0,
      errors: [{ index: 0, code: 'nesting_too_deep' }],
    });
    // The envelope outside `logs` counts the body as 1: resource 2, "a"'s arrays 3 …
    const envelope = (n: number) =>
      `{"resource":{"a":${'['.repeat(n)}${']'.repeat(n)}},"logs":[{}]}`;
    expect((await post(app, envelope(62))).statusCode).toBe(202);
    const tooDeep = await post(app, envelope(63));
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json().error.code).toBe('nesting_too_deep');
    const brackets = await post(app, `{"message":"${'['.repeat(1000)}"}`);
    expect(brackets.statusCode).toBe(202); // brackets inside strings are not nesting
    expect((await readLogs(app, '?limit=1000')).json().logs).toHaveLength(5);
  });

  it('stores records nested 255 deep by default, and messages and extra over 64 KiB', async () => {
    app = receiver();
    const nested = (n: number): unknown => (n === 0 ? 'leaf' : { d: nested(n - 1) });
    const response = await post(app, {
      logs: [
        { extra: nested(254) }, // record 1 + extra 254 objects = 255
        { message: 'm'.repeat(70_000) },
        { extra: { text: 'e'.repeat(70_000) }, attributes: { text: 'a'.repeat(70_000) } },
      ],
    });
    expect(response.json()).toMatchObject({ accepted: 3, rejected: 0 });
  });

  it('rejects oversized attributes per record', async () => {
    app = receiver({ limits: { maxAttributesBytes: 100 } });
    const response = await post(app, {
      logs: [{ attributes: { a: 'x'.repeat(200) } }, { attributes: { a: 1 } }],
    });
    expect(response.json()).toMatchObject({
      accepted: 1,
      rejected: 1,
      errors: [{ index: 0, code: 'attributes_too_large' }],
    });
  });

  it('429 with an integer Retry-After when a key exceeds its rate', async () => {
    let now = 1_000_000;
    app = receiver({ clock: () => now, limits: { rateLimitPerSecond: 1, rateLimitBurst: 2 } });
    expect((await post(app, { message: '1' })).statusCode).toBe(202);
    expect((await post(app, { message: '2' })).statusCode).toBe(202);
    const limited = await post(app, { message: '3' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(limited.json().error.code).toBe('rate_limited');
    // Another key has its own bucket.
    expect((await post(app, { message: 'bob' }, { key: KEYS.bob })).statusCode).toBe(202);
    now += 1000;
    expect((await post(app, { message: '4' })).statusCode).toBe(202);
  });

  it('queues requests beyond maxInFlight; 503 with Retry-After once the queue is full', async () => {
    app = receiver({ limits: { maxInFlight: 1, maxQueuedRequests: 1 } });
    await app.inject({
      method: 'POST',
      url: '/_receiver/faults',
      headers: { authorization: 'Bearer test-admin-token-0123456789' },
      payload: { count: 1, action: { delayMillis: 300 } },
    });
    const slow = post(app, { message: 'slow' });
    // The delayed request holds the only slot; wait until the journal-independent fault fired.
    await expect
      .poll(async () => {
        const faults = await app.inject({
          method: 'GET',
          url: '/_receiver/faults',
          headers: { authorization: 'Bearer test-admin-token-0123456789' },
        });
        return faults.json().faults[0].fired;
      })
      .toBe(1);
    // inject() starts a request only when its result is asked for: start this one now.
    const queued = post(app, { message: 'queued' }).then((response) => response);
    const overloaded = await post(app, { message: 'fast' });
    expect(overloaded.statusCode).toBe(503);
    expect(overloaded.headers['retry-after']).toBe('1');
    expect(overloaded.json().error.code).toBe('overloaded');
    expect((await slow).statusCode).toBe(202);
    expect((await queued).statusCode).toBe(202);
    expect(
      (await readLogs(app, '?order=asc')).json().logs.map((l: { message: string }) => l.message),
    ).toEqual(['slow', 'queued']);
  });

  it('refuses nothing of a 300-request burst from one key with the default limits', async () => {
    app = receiver();
    // Above the old defaults: 200 requests per key in a burst, 64 in flight.
    const statuses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => post(app, { message: `burst ${i}` })),
    );
    expect(statuses.filter((r) => r.statusCode !== 202).map((r) => r.statusCode)).toEqual([]);
    const stored = (await readLogs(app, '?limit=1000')).json().logs;
    expect(stored).toHaveLength(300);
  });

  it('validates limits options with clear messages', () => {
    expect(() => receiver({ limits: { maxDepth: 1025 } })).toThrow(/maxDepth.*at most 1024/);
    expect(() => receiver({ limits: { maxInFlight: 0 } })).toThrow(/maxInFlight.*positive/);
    expect(() => receiver({ limits: { rateLimitPerSecond: -1 } })).toThrow(/non-negative/);
    expect(() => receiver({ limits: { headersTimeoutMillis: 20_000 } })).toThrow(
      /headersTimeoutMillis/,
    );
    expect(() => receiver({ limits: { maxBodyBytes: -1 } })).toThrow(/positive integer/);
    // A coded TypeError, as before it had a code (docs/errors.md, "Receiver").
    expect(() => receiver({ limits: { maxBodyBytes: -1 } })).toThrow(TypeError);
    expect(() => receiver({ limits: { maxBodyBytes: -1 } })).toThrow(
      expect.objectContaining({ code: 'RESLOG_RECEIVER_INVALID_OPTION' }),
    );
  });
});
