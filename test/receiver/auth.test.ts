import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOB_PRIVATE, CHECKOUT, ingestPath, KEYS, post, readLogs, receiver } from './fixtures.js';

const withoutRequestId = (body: { error: Record<string, unknown> }) => {
  const { request_id, ...rest } = body.error;
  expect(request_id).toMatch(/^req_/);
  return rest;
};

describe('auth matrix (docs/receiver.md, "Permissions")', () => {
  let app: FastifyInstance;
  beforeEach(() => {
    app = receiver();
  });
  afterEach(() => app.close());

  it.each([
    ['owner', 202, 200, KEYS.alice],
    ['editor', 202, 200, KEYS.bob],
    ['viewer', 403, 200, KEYS.carol],
    ['stranger', 404, 404, KEYS.mallory],
    ['unknown key', 401, 401, 'no-such-key-000000000'],
  ])('%s: write %i, read %i', async (_who, write, read, key) => {
    const ingest = await post(app, { message: 'x' }, { key });
    expect(ingest.statusCode).toBe(write);
    expect((await readLogs(app, '', { key })).statusCode).toBe(read);
    if (write === 403) expect(ingest.json().error.code).toBe('forbidden');
    if (write === 401) expect(ingest.json().error.code).toBe('invalid_api_key');
  });

  it('401 without X-API-Key', async () => {
    const response = await post(app, { message: 'x' }, { key: undefined });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('missing_api_key');
  });

  it('401 when X-User-Username names another account; accepted when it matches', async () => {
    const mismatch = await post(app, { message: 'x' }, { headers: { 'x-user-username': 'bob' } });
    expect(mismatch.statusCode).toBe(401);
    expect(mismatch.json().error.code).toBe('username_mismatch');
    const match = await post(app, { message: 'x' }, { headers: { 'x-user-username': 'alice' } });
    expect(match.statusCode).toBe(202);
  });

  it('answers the same 404 for hidden, missing, wrong-owner and malformed resources', async () => {
    const cases = [
      ingestPath(BOB_PRIVATE, 'bob'), // exists, not visible to alice
      ingestPath('11111111-2222-4333-8444-555555555555', 'alice'), // does not exist
      ingestPath(CHECKOUT, 'bob'), // exists, but bob is not its owner
      ingestPath(CHECKOUT, 'nobody'), // unknown owner
      ingestPath('not-a-uuid', 'alice'),
    ];
    const bodies = [];
    for (const path of cases) {
      const response = await post(app, { message: 'x' }, { path });
      expect(response.statusCode).toBe(404);
      bodies.push(withoutRequestId(response.json()));
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    // The service's README documents this code for a path whose owner and UUID do not match.
    expect(bodies[0]).toMatchObject({ code: 'invalid_resource' });
    const read = await readLogs(app, '', { uuid: BOB_PRIVATE, owner: 'bob' });
    expect(read.statusCode).toBe(404);
    expect(withoutRequestId(read.json())).toEqual(bodies[0]);
    const otlp = await post(
      app,
      { resourceLogs: [] },
      { path: `/u/bob/resources/${CHECKOUT}/v1/logs` },
    );
    expect(otlp.statusCode).toBe(404);
    expect(withoutRequestId(otlp.json())).toEqual(bodies[0]);
    // The management API keeps its own code for a resource the key may not see.
    const api = await app.inject({
      url: `/api/resources/${BOB_PRIVATE}`,
      headers: { 'x-api-key': KEYS.alice },
    });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('not_found');
    const byKey = await app.inject({
      method: 'GET',
      url: '/u/bob/resources/by-key/bob-private',
      headers: { 'x-api-key': KEYS.alice },
    });
    expect(byKey.statusCode).toBe(404);
    expect(withoutRequestId(byKey.json())).toEqual(bodies[0]);
  });

  it('never stores anything for a refused request', async () => {
    await post(app, { message: 'viewer' }, { key: KEYS.carol });
    await post(app, { message: 'stranger' }, { key: KEYS.mallory });
    expect((await readLogs(app)).json().logs).toEqual([]);
  });

  it('protects the control plane with the admin token', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${KEYS.alice}`]) {
      const response = await app.inject({
        method: 'GET',
        url: '/_receiver/requests',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('admin_unauthorized');
    }
    const internal = await app.inject({ method: 'GET', url: '/internal/resources/1' });
    expect(internal.statusCode).toBe(401);
    const live = await app.inject({ method: 'GET', url: '/_receiver/health/live' });
    expect(live.statusCode).toBe(200);
  });
});
