import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECKOUT, ingestPath, KEYS, post, readLogs, receiver } from './fixtures.js';

describe('ingest and read-back', () => {
  let app: FastifyInstance;
  beforeEach(() => {
    app = receiver();
  });
  afterEach(() => app.close());

  it('stores an SDK-shaped body unchanged and reads it back faithfully', async () => {
    const body = {
      resource_id: CHECKOUT,
      sdk: 'reslog-python',
      sdk_version: '2.3.1',
      logs: [
        {
          level: 'WARN',
          message: 'disk almost full',
          logger: 'app.disk',
          ts: '2026-11-21T04:15:27.123456+00:00',
          extra: { free: 'form', nested: { n: [1, 2, 3] } },
        },
      ],
    };
    const response = await post(app, body, { headers: { 'x-user-username': 'alice' } });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ accepted: 1, rejected: 0, errors: [] });
    const { logs } = (await readLogs(app)).json();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      ts: '2026-11-21T04:15:27.123456000Z',
      level: 'warning',
      message: 'disk almost full',
      logger: 'app.disk',
      extra: { free: 'form', nested: { n: [1, 2, 3] } },
      attributes: {},
      sdk: 'reslog-python',
      sdk_version: '2.3.1',
      severity_number: null,
    });
    expect(typeof logs[0].id).toBe('number');
    expect(logs[0].received_at).toMatch(/Z$/);
  });

  it('keeps every exporter field, nanoseconds and unknown fields', async () => {
    const record = {
      ts: '2026-11-21T04:15:27.123456789Z',
      level: 'info',
      severity_number: 9,
      message: 'payment accepted',
      logger: 'checkout.http',
      attributes: { 'http.route': '/pay', 'order.id': 42, ratio: 'NaN', big: 'Infinity' },
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      span_id: '00f067aa0ba902b7',
      observed_ts: '2026-11-21T04:15:27.124Z',
      event_name: 'payment.accepted',
      body: { structured: ['yes'] },
      id: 'rec-1',
      future_field: { x: 1 },
    };
    const response = await post(
      app,
      {
        resource_id: CHECKOUT,
        sdk: 'reslog',
        sdk_version: '0.1.0',
        resource: { 'service.name': 'checkout', 'host.name': 'web-1' },
        envelope_v2: true,
        logs: [record],
      },
      {
        headers: {
          'user-agent': 'reslog/0.1.0',
          'content-type': 'application/json; charset=utf-8',
        },
      },
    );
    expect(response.statusCode).toBe(202);
    const [log] = (await readLogs(app)).json().logs;
    expect(log).toMatchObject({
      ts: '2026-11-21T04:15:27.123456789Z',
      level: 'info',
      severity_number: 9,
      message: 'payment accepted',
      logger: 'checkout.http',
      attributes: record.attributes,
      trace_id: record.trace_id,
      span_id: record.span_id,
      observed_ts: '2026-11-21T04:15:27.124000000Z',
      event_name: 'payment.accepted',
      body: { structured: ['yes'] },
      record_id: 'rec-1',
      unknown_fields: { future_field: { x: 1 }, $envelope: { envelope_v2: true } },
      resource: { 'service.name': 'checkout', 'host.name': 'web-1' },
      sdk: 'reslog',
      sdk_version: '0.1.0',
    });
  });

  it('reads an absent observed_ts as ts (the exporter leaves it out when they are equal)', async () => {
    await post(app, {
      logs: [
        { ts: '2026-11-21T04:15:27.123456789Z', message: 'same' },
        { ts: '2026-11-21T04:15:27.5Z', observed_ts: '2026-11-21T04:15:28Z', message: 'later' },
      ],
    });
    const logs = (await readLogs(app, '?order=asc')).json().logs;
    expect(logs.map((l: { ts: string; observed_ts: string }) => [l.ts, l.observed_ts])).toEqual([
      ['2026-11-21T04:15:27.123456789Z', '2026-11-21T04:15:27.123456789Z'],
      ['2026-11-21T04:15:27.500000000Z', '2026-11-21T04:15:28.000000000Z'],
    ]);
  });

  it('accepts a single log object from curl, with and without the trailing slash', async () => {
    const slash = await post(app, { message: 'hello from curl', level: 'error' });
    const bare = await post(app, { message: 'no slash' }, { path: ingestPath().slice(0, -1) });
    expect([slash.statusCode, bare.statusCode]).toEqual([202, 202]);
    const { logs } = (await readLogs(app, '?order=asc')).json();
    expect(logs.map((l: { message: string; level: string }) => [l.message, l.level])).toEqual([
      ['hello from curl', 'error'],
      ['no slash', 'info'],
    ]);
  });

  it('stores the valid records of a batch and reports the others by index', async () => {
    const response = await post(app, {
      logs: [
        { message: 'ok 1' },
        { message: 'bad level', level: 'x'.repeat(65) },
        'not an object',
        { message: 'bad ts', ts: '2026-13-01T00:00:00Z' },
        { message: 'ok 2', level: 'fatal' },
        { message: 'bad logger', logger: 42 },
        { message: 'bad trace', trace_id: 'xyz' },
      ],
    });
    expect(response.statusCode).toBe(202);
    const answer = response.json();
    expect(answer.accepted).toBe(2);
    expect(answer.rejected).toBe(5);
    expect(answer.errors.map((e: { index: number; code: string }) => [e.index, e.code])).toEqual([
      [1, 'invalid_level'],
      [2, 'invalid_record'],
      [3, 'invalid_ts'],
      [5, 'invalid_logger'],
      [6, 'invalid_trace_id'],
    ]);
    const { logs } = (await readLogs(app, '?order=asc')).json();
    expect(logs.map((l: { message: string; level: string }) => [l.message, l.level])).toEqual([
      ['ok 1', 'info'],
      ['ok 2', 'critical'],
    ]);
  });

  it('stores every record of a batch bigger than one multi-row insert, in order', async () => {
    const logs = Array.from({ length: 123 }, (_, i) => ({
      ts: `2026-11-21T04:15:27.${String(i).padStart(9, '0')}Z`,
      level: i % 2 ? 'error' : 'info',
      message: `record ${i}`,
      ...(i % 3 === 0 ? { attributes: { i }, trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' } : {}),
      ...(i % 5 === 0 ? { custom: i } : {}),
    }));
    const response = await post(app, { sdk: 'bulk', resource: { r: 1 }, logs });
    expect(response.json()).toMatchObject({ accepted: 123, rejected: 0 });
    const stored = (await readLogs(app, '?order=asc&limit=1000')).json().logs;
    expect(stored).toHaveLength(123);
    stored.forEach((log: Record<string, unknown>, i: number) => {
      expect(log).toMatchObject({
        message: `record ${i}`,
        level: i % 2 ? 'error' : 'info',
        attributes: i % 3 === 0 ? { i } : {},
        trace_id: i % 3 === 0 ? '4bf92f3577b34da6a3ce929d0e0e4736' : null,
        unknown_fields: i % 5 === 0 ? { custom: i } : {},
        resource: { r: 1 },
        sdk: 'bulk',
      });
    });
    const traced = (
      await readLogs(app, '?trace_id=4bf92f3577b34da6a3ce929d0e0e4736&limit=1000')
    ).json();
    expect(traced.logs).toHaveLength(41);
  });

  it('accepts gzip bodies', async () => {
    const response = await post(app, { logs: [{ message: 'zipped' }] }, { gzip: true });
    expect(response.statusCode).toBe(202);
    expect((await readLogs(app)).json().logs[0].message).toBe('zipped');
  });

  it('rejects resource_id that differs from the path with 400', async () => {
    const response = await post(app, {
      resource_id: '00000000-0000-4000-8000-000000000000',
      logs: [{ message: 'x' }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('resource_id_mismatch');
    expect((await readLogs(app)).json().logs).toEqual([]);
  });

  it('drops __proto__ keys so nothing reaches a prototype; constructor stays data', async () => {
    const text =
      '{"logs":[{"message":"p","attributes":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"a":1},"extra":{"__proto__":{"isAdmin":true}}}]}';
    const response = await post(app, text);
    expect(response.statusCode).toBe(202);
    const [log] = (await readLogs(app)).json().logs;
    expect(log.attributes).toEqual({ constructor: { prototype: { polluted: true } }, a: 1 });
    expect(Object.hasOwn(log.extra, '__proto__')).toBe(false);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it('pages with an opaque cursor, filters, and keeps pages stable while logs arrive', async () => {
    const logs = Array.from({ length: 25 }, (_, i) => ({
      ts: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000000001Z`,
      level: i % 5 === 0 ? 'error' : 'info',
      message: i % 2 === 0 ? `even payment ${i}` : `odd ${i}`,
      ...(i === 7
        ? { trace_id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', span_id: 'bbbbbbbbbbbbbbbb' }
        : {}),
    }));
    expect((await post(app, { logs })).statusCode).toBe(202);

    const first = (await readLogs(app, '?limit=10')).json();
    expect(first.logs.map((l: { message: string }) => l.message)[0]).toBe('even payment 24');
    expect(first.next_cursor).toEqual(expect.any(String));
    // A newer log arrives between pages: it is not mixed into this listing.
    await post(app, { ts: '2026-01-01T00:00:12.5Z', message: 'late arrival' });
    const seen = [...first.logs];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = (await readLogs(app, `?limit=10&cursor=${cursor}`)).json();
      seen.push(...page.logs);
      cursor = page.next_cursor;
    }
    expect(seen.map((l: { message: string }) => l.message)).toEqual(
      logs.map((l) => l.message).reverse(),
    );

    const errors = (await readLogs(app, '?level=error&order=asc')).json().logs;
    expect(errors.map((l: { message: string }) => l.message)).toEqual([
      'even payment 0',
      'odd 5',
      'even payment 10',
      'odd 15',
      'even payment 20',
    ]);
    const q = (await readLogs(app, '?q=PAYMENT 2&order=asc')).json().logs;
    expect(q.map((l: { message: string }) => l.message)).toEqual([
      'even payment 2',
      'even payment 20',
      'even payment 22',
      'even payment 24',
    ]);
    const window = (
      await readLogs(
        app,
        '?since=2026-01-01T00:00:03Z&until=2026-01-01T00:00:05.000000001Z&order=asc',
      )
    ).json().logs;
    expect(window.map((l: { message: string }) => l.message)).toEqual(['odd 3', 'even payment 4']);
    const traced = (await readLogs(app, '?trace_id=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).json().logs;
    expect(traced.map((l: { message: string }) => l.message)).toEqual(['odd 7']);
    expect((await readLogs(app, '?cursor=garbage')).statusCode).toBe(400);
    expect((await readLogs(app, '?limit=1001')).statusCode).toBe(400);
  });

  it('lets collaborators read and looks resources up by key', async () => {
    await post(app, { message: 'shared' });
    for (const key of [KEYS.bob, KEYS.carol]) {
      const response = await readLogs(app, '', { key });
      expect(response.statusCode).toBe(200);
      expect(response.json().logs[0].message).toBe('shared');
    }
    const lookup = await app.inject({
      method: 'GET',
      url: '/u/alice/resources/by-key/checkout-api',
      headers: { 'x-api-key': KEYS.carol },
    });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({
      uuid: CHECKOUT,
      key: 'checkout-api',
      name: 'Checkout API',
      owner: 'alice',
      health: 'unknown',
    });
  });
});
