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

  it('400 nesting_too_deep beyond depth 64, without parsing', async () => {
    app = receiver();
    const deep = (n: number) => `{"logs":[{"attributes":{"a":${'['.repeat(n)}${']'.repeat(n)}}}]}`;
    const ok = await post(app, deep(60)); // 4 levels of envelope + 60 = 64
    expect(ok.statusCode).toBe(202);
    const tooDeep = await post(app, deep(61));
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json().error.code).toBe('nesting_too_deep');
    const brackets = await post(app, `{"message":"${'['.repeat(1000)}"}`);
    expect(brackets.statusCode).toBe(202); // brackets inside strings are not nesting
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

  it('503 with Retry-After when too many requests are in flight', async () => {
    app = receiver({ limits: { maxInFlight: 1 } });
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
    const overloaded = await post(app, { message: 'fast' });
    expect(overloaded.statusCode).toBe(503);
    expect(overloaded.headers['retry-after']).toBe('1');
    expect(overloaded.json().error.code).toBe('overloaded');
    expect((await slow).statusCode).toBe(202);
    expect((await readLogs(app)).json().logs.map((l: { message: string }) => l.message)).toEqual([
      'slow',
    ]);
  });

  it('validates limits options with clear messages', () => {
    expect(() => receiver({ limits: { maxDepth: 65 } })).toThrow(/maxDepth.*at most 64/);
    expect(() => receiver({ limits: { headersTimeoutMillis: 20_000 } })).toThrow(
      /headersTimeoutMillis/,
    );
    expect(() => receiver({ limits: { maxBodyBytes: -1 } })).toThrow(/positive integer/);
  });
});
