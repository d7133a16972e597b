import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  admin,
  BILLING,
  BOB_PRIVATE,
  CHECKOUT,
  ingestPath,
  KEYS,
  post,
  receiver,
} from './fixtures.js';

const key = (name: keyof typeof KEYS) => ({ 'x-api-key': KEYS[name] });

describe('the admin token reads any resource (docs/receiver.md, "Admin token reads")', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());
  const get = (url: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url, headers });

  it('lists every resource with its owner, health and role "admin"', async () => {
    app = receiver();
    const answer = await get('/api/resources', admin);
    expect(answer.statusCode).toBe(200);
    const resources = answer.json().resources;
    // By owner, then key.
    expect(resources.map((r: { uuid: string }) => r.uuid)).toEqual([
      BILLING,
      CHECKOUT,
      BOB_PRIVATE,
    ]);
    expect(resources[1]).toMatchObject({
      uuid: CHECKOUT,
      key: 'checkout-api',
      name: 'Checkout API',
      owner: 'alice',
      role: 'admin',
      health: 'unknown',
    });
    expect(resources[2]).toMatchObject({ owner: 'bob', role: 'admin' });
    // A key still lists only what its account may see.
    const carol = (await get('/api/resources', key('carol'))).json().resources;
    expect(carol.map((r: { uuid: string; role: string }) => [r.uuid, r.role])).toEqual([
      [CHECKOUT, 'viewer'],
    ]);
  });

  it('reads a resource, its logs, health, history and collaborators', async () => {
    app = receiver();
    await post(app, { message: 'hello', logger: 'checkout.http' }, { key: KEYS.alice });
    const resource = await get(`/api/resources/${BOB_PRIVATE}`, admin);
    expect(resource.json()).toMatchObject({ uuid: BOB_PRIVATE, owner: 'bob', role: 'admin' });
    const logs = await get(`${ingestPath()}?logger=checkout.http`, admin);
    expect(logs.statusCode).toBe(200);
    expect(logs.json().logs.map((l: { message: string }) => l.message)).toEqual(['hello']);
    expect((await get(`/api/resources/${CHECKOUT}/health`, admin)).json().state).toBe('unknown');
    expect((await get(`/api/resources/${CHECKOUT}/health/history`, admin)).json()).toEqual({
      events: [],
    });
    expect((await get(`/api/resources/${CHECKOUT}/collaborators`, admin)).json()).toEqual({
      owner: 'alice',
      collaborators: [
        { username: 'bob', role: 'editor' },
        { username: 'carol', role: 'viewer' },
      ],
    });
    const byKey = await get('/u/alice/resources/by-key/checkout-api', admin);
    expect(byKey.json().uuid).toBe(CHECKOUT);
  });

  it('follows any resource', async () => {
    app = receiver();
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const abort = new AbortController();
    const response = await fetch(`${url}${ingestPath(BOB_PRIVATE, 'bob')}?follow=true`, {
      headers: admin,
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    await post(
      app,
      { message: 'from bob' },
      { key: KEYS.bob, path: ingestPath(BOB_PRIVATE, 'bob') },
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(text.split('\n')[0] as string).message).toBe('from bob');
    abort.abort();
  });

  it('writes nothing and has no account of its own: every other route wants a key', async () => {
    app = receiver();
    const ingest = await post(app, { message: 'x' }, { key: undefined, headers: admin });
    expect(ingest.statusCode).toBe(401);
    expect(ingest.json().error.code).toBe('missing_api_key');
    for (const [method, url] of [
      ['PATCH', `/api/resources/${CHECKOUT}`],
      ['DELETE', `/api/resources/${CHECKOUT}`],
      ['PUT', `/api/resources/${CHECKOUT}/health`],
      ['GET', `/api/resources/${CHECKOUT}/notification-settings`],
      ['GET', '/api/notifications'],
      ['GET', '/api/me'],
      ['GET', '/api/teams'],
    ] as const) {
      const answer = await app.inject({
        method,
        url,
        headers: { ...admin, 'content-type': 'application/json' },
        payload:
          method === 'GET' || method === 'DELETE' ? undefined : '{"name":"x","state":"down"}',
      });
      expect(answer.statusCode, `${method} ${url}`).toBe(401);
      expect(answer.json().error.code).toBe('missing_api_key');
    }
    expect((await get(`/api/resources/${CHECKOUT}`, admin)).json().name).toBe('Checkout API');
  });

  it('a wrong token is 401 admin_unauthorized; paths still name the owner; unknown is 404', async () => {
    app = receiver();
    const wrong = await get('/api/resources', { authorization: 'Bearer not-the-token' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('admin_unauthorized');
    const logsWrong = await get(ingestPath(), { authorization: `Bearer ${ADMIN_TOKEN}x` });
    expect(logsWrong.json().error.code).toBe('admin_unauthorized');
    const otherOwner = await get(ingestPath(CHECKOUT, 'bob'), admin);
    expect(otherOwner.statusCode).toBe(404);
    expect(otherOwner.json().error.code).toBe('invalid_resource');
    const unknown = await get('/api/resources/00000000-0000-4000-8000-000000000000', admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });

  it('a key keeps its own rules, even next to the admin token: no enumeration', async () => {
    app = receiver();
    const both = await get(ingestPath(), { ...key('mallory'), ...admin });
    expect(both.statusCode).toBe(404);
    expect(both.json().error.code).toBe('invalid_resource');
    // A viewer of alice's resource cannot see bob's.
    const logs = await get(ingestPath(BOB_PRIVATE, 'bob'), key('carol'));
    expect(logs.statusCode).toBe(404);
    for (const url of [
      `/api/resources/${BOB_PRIVATE}`,
      `/api/resources/${BOB_PRIVATE}/health/history`,
      `/api/resources/${BOB_PRIVATE}/collaborators`,
    ]) {
      const answer = await get(url, key('carol'));
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json().error.code).toBe('not_found');
    }
    expect((await get(ingestPath(), key('carol'))).statusCode).toBe(200);
  });
});

describe('GET /api/resources/{uuid}/health/history', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  it('answers {events} newest first, limit, for every member', async () => {
    app = receiver();
    for (const [state, reason] of [
      ['degraded', 'slow'],
      ['down', 'gone'],
      ['healthy', null],
    ] as const) {
      const answer = await app.inject({
        method: 'PUT',
        url: `/api/resources/${CHECKOUT}/health`,
        headers: { ...key('bob'), 'content-type': 'application/json' },
        payload: reason === null ? { state } : { state, reason },
      });
      expect(answer.statusCode).toBe(200);
    }
    const history = await app.inject({
      method: 'GET',
      url: `/api/resources/${CHECKOUT}/health/history?limit=2`,
      headers: key('carol'),
    });
    expect(history.statusCode).toBe(200);
    expect(history.json()).toEqual({
      events: [
        {
          from: 'down',
          to: 'healthy',
          reason: null,
          source: 'manual',
          actor: 'bob',
          probe: null,
          at: expect.any(String),
        },
        {
          from: 'degraded',
          to: 'down',
          reason: 'gone',
          source: 'manual',
          actor: 'bob',
          probe: null,
          at: expect.any(String),
        },
      ],
    });
    const all = await app.inject({
      method: 'GET',
      url: `/api/resources/${CHECKOUT}/health/history`,
      headers: key('alice'),
    });
    expect(all.json().events).toHaveLength(3);
    const tooMany = await app.inject({
      method: 'GET',
      url: `/api/resources/${CHECKOUT}/health/history?limit=1001`,
      headers: key('alice'),
    });
    expect(tooMany.statusCode).toBe(400);
    const stranger = await app.inject({
      method: 'GET',
      url: `/api/resources/${CHECKOUT}/health/history`,
      headers: key('mallory'),
    });
    expect(stranger.statusCode).toBe(404);
  });
});
