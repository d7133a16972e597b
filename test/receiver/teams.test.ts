import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildReceiver } from '../../src/receiver/index.js';
import { api, inbox } from './api-fixtures.js';
import { ADMIN_TOKEN } from './fixtures.js';

/**
 * Team-owned resources (docs/receiver.md, "Teams"): the data plane under
 * /team/{team}/resources/{uuid}/…, the management API for teams, the path prefix and the
 * acting-user header, as the service's SDKs use them.
 */

const USERS = ['alice', 'bob', 'carol', 'dave', 'mallory'] as const;
type User = (typeof USERS)[number];
const KEY: Record<User, string> = Object.fromEntries(
  USERS.map((user) => [user, `${user}-team-test-key-0001`]),
) as Record<User, string>;

/** Owned by team devops (dave admin, bob editor, carol viewer). */
const PLATFORM = '1a2b3c4d-0000-4000-8000-000000000001';
/** Owned by team devops; carol is also a direct collaborator (editor) on it. */
const WORKER = '1a2b3c4d-0000-4000-8000-000000000002';
/** Owned by the account alice (bob editor, carol viewer). */
const ALICE_API = '1a2b3c4d-0000-4000-8000-000000000003';

const SEED = {
  accounts: USERS.map((username) => ({ username, api_keys: [KEY[username]] })),
  teams: [
    {
      name: 'devops',
      members: [
        { username: 'dave', role: 'admin' },
        { username: 'bob', role: 'editor' },
        { username: 'carol', role: 'viewer' },
      ],
    },
  ],
  resources: [
    { team: 'devops', uuid: PLATFORM, key: 'platform-api', name: 'Platform API' },
    {
      team: 'devops',
      uuid: WORKER,
      key: 'worker',
      collaborators: [{ username: 'carol', role: 'editor' }],
    },
    {
      owner: 'alice',
      uuid: ALICE_API,
      key: 'platform-api',
      collaborators: [
        { username: 'bob', role: 'editor' },
        { username: 'carol', role: 'viewer' },
      ],
    },
  ],
};

const teamPath = (uuid = PLATFORM, team = 'devops') => `/team/${team}/resources/${uuid}`;
const userPath = (uuid = ALICE_API, owner = 'alice') => `/u/${owner}/resources/${uuid}`;

function build(options: Parameters<typeof buildReceiver>[0] = {}): FastifyInstance {
  return buildReceiver({ seed: SEED, adminToken: ADMIN_TOKEN, ...options });
}

function send(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  user: User,
  { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method,
    url,
    headers: {
      'x-api-key': KEY[user],
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

const otlpBody = (message: string) => ({
  resourceLogs: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'platform' } }] },
      scopeLogs: [{ scope: { name: 'otel' }, logRecords: [{ body: { stringValue: message } }] }],
    },
  ],
});

async function messages(app: FastifyInstance, path: string, user: User = 'dave') {
  const response = await send(app, 'GET', `${path}/logs/?order=asc`, user);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().logs as { message: string }[]).map((log) => log.message);
}

describe('team-owned resources', () => {
  let app: FastifyInstance;
  beforeEach(() => {
    app = build();
  });
  afterEach(() => app.close());

  it('an editor member ingests, reads back, looks up by key and sends OTLP under /team/{team}/…', async () => {
    const ingest = await send(app, 'POST', `${teamPath()}/logs/`, 'bob', {
      body: { logs: [{ message: 'deployed', level: 'info' }] },
    });
    expect(ingest.statusCode, ingest.body).toBe(202);
    expect(ingest.json()).toMatchObject({ accepted: 1, rejected: 0 });
    // Without the trailing slash too, as curl users type it.
    expect(
      (await send(app, 'POST', `${teamPath()}/logs`, 'bob', { body: { message: 'no slash' } }))
        .statusCode,
    ).toBe(202);
    const otlp = await send(app, 'POST', `${teamPath()}/v1/logs`, 'bob', {
      body: otlpBody('via otlp'),
    });
    expect(otlp.statusCode, otlp.body).toBe(200);
    expect(otlp.json()).toEqual({});

    expect(await messages(app, teamPath(), 'bob')).toEqual(['deployed', 'no slash', 'via otlp']);
    const byKey = await send(app, 'GET', '/team/devops/resources/by-key/platform-api', 'bob');
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json()).toEqual({
      uuid: PLATFORM,
      key: 'platform-api',
      name: 'Platform API',
      team: 'devops',
      health: 'unknown',
    });
    // The account alice has a resource with the same key: keys are unique per owner.
    const alices = await send(app, 'GET', '/u/alice/resources/by-key/platform-api', 'bob');
    expect(alices.json()).toMatchObject({ uuid: ALICE_API, owner: 'alice' });
    expect(alices.json()).not.toHaveProperty('team');
  });

  it('a viewer member reads (200) but may not write (403, nothing stored)', async () => {
    const write = await send(app, 'POST', `${teamPath()}/logs/`, 'carol', {
      body: { message: 'should not land' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.code).toBe('forbidden');
    const otlp = await send(app, 'POST', `${teamPath()}/v1/logs`, 'carol', {
      body: otlpBody('nor this'),
    });
    expect(otlp.statusCode).toBe(403);
    expect(await messages(app, teamPath(), 'carol')).toEqual([]);
    expect(
      (await send(app, 'GET', '/team/devops/resources/by-key/platform-api', 'carol')).statusCode,
    ).toBe(200);
  });

  it('a direct collaborator on a team resource keeps its role: the higher of the two wins', async () => {
    // carol is a team viewer, and an editor of WORKER directly.
    const response = await send(app, 'POST', `${teamPath(WORKER)}/logs/`, 'carol', {
      body: { message: 'carol writes' },
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(await messages(app, teamPath(WORKER))).toEqual(['carol writes']);
    const listed = (await api(app, 'GET', '/api/resources', KEY.carol)).json().resources;
    expect(listed.map((r: Record<string, string>) => [r.team ?? r.owner, r.key, r.role])).toEqual([
      ['alice', 'platform-api', 'viewer'],
      ['devops', 'platform-api', 'viewer'],
      ['devops', 'worker', 'editor'],
    ]);
  });

  it('answers the same 404 invalid_resource to a non-member and to paths naming the wrong owner', async () => {
    const refused = [
      // mallory is not a member of devops
      await send(app, 'POST', `${teamPath()}/logs/`, 'mallory', { body: { message: 'x' } }),
      await send(app, 'GET', `${teamPath()}/logs/`, 'mallory'),
      await send(app, 'GET', '/team/devops/resources/by-key/platform-api', 'mallory'),
      await send(app, 'POST', `${teamPath()}/v1/logs`, 'mallory', { body: otlpBody('x') }),
      // a team's resource under an account path, even the team admin's own
      await send(app, 'POST', `${userPath(PLATFORM, 'dave')}/logs/`, 'dave', {
        body: { message: 'x' },
      }),
      await send(app, 'GET', `${userPath(PLATFORM, 'dave')}/logs/`, 'dave'),
      // an account's resource under a team path
      await send(app, 'POST', `${teamPath(ALICE_API)}/logs/`, 'bob', { body: { message: 'x' } }),
      await send(app, 'GET', `${teamPath(ALICE_API)}/logs/`, 'bob'),
      // a team that does not exist, a malformed UUID, a key of another owner
      await send(app, 'GET', `${teamPath(PLATFORM, 'nope')}/logs/`, 'bob'),
      await send(app, 'GET', `${teamPath('not-a-uuid')}/logs/`, 'bob'),
      await send(app, 'GET', '/team/devops/resources/by-key/missing', 'bob'),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().error.code).toBe('invalid_resource');
    }
    const bodies = new Set(
      refused.map((r) => {
        const { request_id: _, ...rest } = r.json().error;
        return JSON.stringify(rest);
      }),
    );
    expect(bodies.size).toBe(1);
    expect(await messages(app, teamPath())).toEqual([]);
    expect(await messages(app, userPath(), 'alice')).toEqual([]);
  });

  it('team members get notifications of the team resources; a removed member loses access and inbox', async () => {
    const health = await api(app, 'PUT', `/api/resources/${PLATFORM}/health`, KEY.bob, {
      state: 'degraded',
      reason: 'slow',
    });
    expect(health.statusCode, health.body).toBe(200);
    for (const user of ['dave', 'bob', 'carol'] as const) {
      const notes = await inbox(app, KEY[user]);
      expect(notes.map((n) => [n.kind, n.resource.team, n.resource.key])).toEqual([
        ['health_change', 'devops', 'platform-api'],
      ]);
      expect(notes[0]?.resource).not.toHaveProperty('owner');
    }
    expect(await inbox(app, KEY.mallory)).toEqual([]);
    // Viewers may not set health; the team's admin acts as the owner of its resources.
    expect(
      (await api(app, 'PUT', `/api/resources/${PLATFORM}/health`, KEY.carol, { state: 'down' }))
        .statusCode,
    ).toBe(403);

    const removed = await api(app, 'DELETE', '/api/teams/devops/members/bob', KEY.dave);
    expect(removed.statusCode).toBe(204);
    expect(await inbox(app, KEY.bob)).toEqual([]);
    const after = await send(app, 'POST', `${teamPath()}/logs/`, 'bob', { body: { message: 'x' } });
    expect(after.statusCode).toBe(404);
    expect((await api(app, 'GET', `/api/resources/${PLATFORM}`, KEY.bob)).statusCode).toBe(404);
  });
});

describe('management API for teams', () => {
  let app: FastifyInstance;
  beforeEach(() => {
    app = build();
  });
  afterEach(() => app.close());

  it('creates a team (the creator is its admin), lists my teams and shows members to members only', async () => {
    const created = await api(app, 'POST', '/api/teams', KEY.mallory, { name: 'qa' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({
      name: 'qa',
      role: 'admin',
      created_at: expect.any(String),
      members: [{ username: 'mallory', role: 'admin' }],
    });
    expect((await api(app, 'POST', '/api/teams', KEY.bob, { name: 'qa' })).statusCode).toBe(409);
    // Teams and accounts are separate namespaces (paths say /u/ or /team/).
    expect((await api(app, 'POST', '/api/teams', KEY.alice, { name: 'alice' })).statusCode).toBe(
      201,
    );
    expect((await api(app, 'POST', '/api/teams', KEY.alice, { name: 'Bad Name' })).statusCode).toBe(
      400,
    );

    const mine = await api(app, 'GET', '/api/teams', KEY.bob);
    expect(mine.json().teams).toEqual([
      { name: 'devops', role: 'editor', created_at: expect.any(String) },
    ]);
    const devops = await api(app, 'GET', '/api/teams/devops', KEY.carol);
    expect(devops.statusCode).toBe(200);
    expect(devops.json()).toMatchObject({
      name: 'devops',
      role: 'viewer',
      members: [
        { username: 'bob', role: 'editor' },
        { username: 'carol', role: 'viewer' },
        { username: 'dave', role: 'admin' },
      ],
    });
    // A non-member cannot tell the team from one that does not exist.
    const hidden = await api(app, 'GET', '/api/teams/devops', KEY.mallory);
    const missing = await api(app, 'GET', '/api/teams/nope', KEY.mallory);
    expect([hidden.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(hidden.json().error.message).toBe(missing.json().error.message);
  });

  it('only the team admin manages members; a member may leave; the last admin stays', async () => {
    const put = (user: User, target: string, role: string) =>
      api(app, 'PUT', `/api/teams/devops/members/${target}`, KEY[user], { role });
    expect((await put('bob', 'mallory', 'viewer')).statusCode).toBe(403);
    expect((await put('carol', 'carol', 'admin')).statusCode).toBe(403);
    expect((await put('mallory', 'mallory', 'admin')).statusCode).toBe(404);

    const added = await put('dave', 'mallory', 'viewer');
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toEqual({ username: 'mallory', role: 'viewer' });
    expect((await put('dave', 'mallory', 'editor')).statusCode).toBe(200);
    expect((await put('dave', 'nobody', 'editor')).statusCode).toBe(404);
    expect((await put('dave', 'mallory', 'owner')).statusCode).toBe(400);
    // mallory, now an editor, writes to the team's resource.
    expect(
      (await send(app, 'POST', `${teamPath()}/logs/`, 'mallory', { body: { message: 'hi' } }))
        .statusCode,
    ).toBe(202);

    // The only admin can neither be demoted nor leave; with a second admin, both work.
    expect((await put('dave', 'dave', 'editor')).json().error.code).toBe('conflict');
    expect((await api(app, 'DELETE', '/api/teams/devops/members/dave', KEY.dave)).statusCode).toBe(
      409,
    );
    expect((await put('dave', 'bob', 'admin')).statusCode).toBe(200);
    expect((await put('bob', 'dave', 'viewer')).statusCode).toBe(200);

    // Members leave by themselves; removing someone else is the admin's.
    expect(
      (await api(app, 'DELETE', '/api/teams/devops/members/carol', KEY.mallory)).statusCode,
    ).toBe(403);
    expect(
      (await api(app, 'DELETE', '/api/teams/devops/members/carol', KEY.carol)).statusCode,
    ).toBe(204);
    expect((await api(app, 'DELETE', '/api/teams/devops/members/carol', KEY.bob)).statusCode).toBe(
      404,
    );
    expect((await api(app, 'GET', '/api/teams', KEY.carol)).json().teams).toEqual([]);
  });

  it('team admins create and manage team resources; /api/resources shows them with "team"', async () => {
    const create = (user: User, body: object) =>
      api(app, 'POST', '/api/teams/devops/resources', KEY[user], body);
    expect((await create('bob', { name: 'Billing' })).statusCode).toBe(403);
    expect((await create('mallory', { name: 'Billing' })).statusCode).toBe(404);
    const created = await create('dave', { name: 'Billing Jobs' });
    expect(created.statusCode, created.body).toBe(201);
    const resource = created.json();
    expect(resource).toMatchObject({ key: 'billing-jobs', team: 'devops', role: 'owner' });
    expect(resource).not.toHaveProperty('owner');
    expect((await create('dave', { name: 'x', key: 'billing-jobs' })).statusCode).toBe(409);
    // Another owner may use the same key.
    expect(
      (await api(app, 'POST', '/api/resources', KEY.dave, { name: 'x', key: 'billing-jobs' }))
        .statusCode,
    ).toBe(201);

    const bobs = (await api(app, 'GET', '/api/resources', KEY.bob)).json().resources;
    expect(
      bobs.map((r: Record<string, string>) => [r.owner ?? `team:${r.team}`, r.key, r.role]),
    ).toEqual([
      ['alice', 'platform-api', 'editor'],
      ['team:devops', 'billing-jobs', 'editor'],
      ['team:devops', 'platform-api', 'editor'],
      ['team:devops', 'worker', 'editor'],
    ]);
    // Editors write but do not rename; the admin renames, shares and deletes.
    const base = `/api/resources/${resource.uuid}`;
    expect((await api(app, 'PATCH', base, KEY.bob, { name: 'B' })).statusCode).toBe(403);
    expect((await api(app, 'PATCH', base, KEY.dave, { key: 'worker' })).statusCode).toBe(409);
    expect((await api(app, 'PATCH', base, KEY.dave, { name: 'Billing' })).json()).toMatchObject({
      name: 'Billing',
      team: 'devops',
    });
    const share = await api(app, 'PUT', `${base}/collaborators/mallory`, KEY.dave, {
      role: 'viewer',
    });
    expect(share.statusCode).toBe(201);
    expect((await api(app, 'GET', `${base}/collaborators`, KEY.dave)).json()).toEqual({
      team: 'devops',
      collaborators: [{ username: 'mallory', role: 'viewer' }],
    });
    // Adding a team member as a collaborator is a new share (201), not a role change.
    expect(
      (await api(app, 'PUT', `${base}/collaborators/bob`, KEY.dave, { role: 'viewer' })).statusCode,
    ).toBe(201);
    // bob keeps editing through the team: the higher role wins.
    expect(
      (
        await send(app, 'POST', `/team/devops/resources/${resource.uuid}/logs/`, 'bob', {
          body: { message: 'still editor' },
        })
      ).statusCode,
    ).toBe(202);
    expect((await api(app, 'DELETE', base, KEY.bob)).statusCode).toBe(403);
    expect((await api(app, 'DELETE', base, KEY.dave)).statusCode).toBe(204);
  });

  it('every team route is in the OpenAPI document with its schemas', async () => {
    const doc = (await app.inject({ url: '/_receiver/openapi.json' })).json();
    for (const path of [
      '/api/teams',
      '/api/teams/{team}',
      '/api/teams/{team}/members/{username}',
      '/api/teams/{team}/resources',
      '/team/{team}/resources/{uuid}/logs/',
      '/team/{team}/resources/{uuid}/v1/logs',
      '/team/{team}/resources/by-key/{key}',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(
      doc.paths['/api/teams'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['name']);
  });
});

describe('path prefix', () => {
  let app: FastifyInstance | undefined;
  afterEach(() => app?.close());

  it('serves the data plane and /api only under the prefix, over a real socket; control plane and metrics stay at the root', async () => {
    app = build({ pathPrefix: '/DevTools/' });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const call = (path: string, user: User, body?: unknown) =>
      fetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'x-api-key': KEY[user], 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    expect((await call(`/DevTools${userPath()}/logs/`, 'bob', { message: 'user' })).status).toBe(
      202,
    );
    expect((await call(`/DevTools${teamPath()}/logs/`, 'bob', { message: 'team' })).status).toBe(
      202,
    );
    expect((await call(`/DevTools${teamPath()}/v1/logs`, 'bob', otlpBody('otlp'))).status).toBe(
      200,
    );
    const read = await call(`/DevTools${teamPath()}/logs/?order=asc`, 'carol');
    expect(
      ((await read.json()) as { logs: { message: string }[] }).logs.map((l) => l.message),
    ).toEqual(['team', 'otlp']);
    const byKey = await call('/DevTools/team/devops/resources/by-key/platform-api', 'bob');
    expect(((await byKey.json()) as { uuid: string }).uuid).toBe(PLATFORM);
    expect((await call('/DevTools/api/teams', 'bob')).status).toBe(200);

    // Not served outside the prefix: a client that forgot it is told so, not silently served.
    for (const path of [`${userPath()}/logs/`, `${teamPath()}/logs/`, '/api/me']) {
      const response = await call(path, 'bob');
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
    expect((await fetch(`${base}/_receiver/health/ready`)).status).toBe(200);
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
    const journal = await fetch(`${base}/_receiver/requests`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(journal.status).toBe(200);
  });

  it('rejects a prefix that is not a path, naming the option', () => {
    for (const bad of ['DevTools', '/a b', '/../x', 42]) {
      expect(() => build({ pathPrefix: bad as string })).toThrow(/"pathPrefix"/);
    }
  });
});

describe('acting user (X-User-Username)', () => {
  let app: FastifyInstance;
  beforeEach(() => {
    app = build();
  });
  afterEach(() => app.close());

  const write = (path: string, user: User, actingUser: string) =>
    send(app, 'POST', `${path}/logs/`, user, {
      body: { message: `${user} as ${actingUser}` },
      headers: { 'x-user-username': actingUser },
    });

  it('an editor writing to the owner path as themself is accepted, in any case and with spaces around', async () => {
    expect((await write(userPath(), 'bob', 'bob')).statusCode).toBe(202);
    expect((await write(userPath(), 'bob', ' BoB ')).statusCode).toBe(202);
    expect((await write(teamPath(), 'bob', 'Bob')).statusCode).toBe(202);
    expect((await write(userPath(), 'alice', 'ALICE')).statusCode).toBe(202);
    // Each log reads back with who wrote it: the key's account, however the header spelt it.
    const logs = (await send(app, 'GET', `${userPath()}/logs/?order=asc`, 'alice')).json().logs;
    expect(logs.map((l: { message: string; user: string }) => [l.message, l.user])).toEqual([
      ['bob as bob', 'bob'],
      ['bob as  BoB ', 'bob'],
      ['alice as ALICE', 'alice'],
    ]);
    const team = (await send(app, 'GET', `${teamPath()}/logs/`, 'carol')).json().logs;
    expect(team.map((l: { user: string }) => l.user)).toEqual(['bob']);
    // Without the header the writer is still the key's account.
    await send(app, 'POST', `${teamPath()}/v1/logs`, 'dave', { body: otlpBody('otlp') });
    const otlp = (await send(app, 'GET', `${teamPath()}/logs/?q=otlp`, 'carol')).json().logs;
    expect(otlp.map((l: { user: string }) => l.user)).toEqual(['dave']);
  });

  it('a viewer naming themself gets 403, not a silent loss', async () => {
    for (const path of [userPath(), teamPath()]) {
      const response = await write(path, 'carol', 'carol');
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
    }
    expect(await messages(app, userPath(), 'alice')).toEqual([]);
  });

  it("naming someone else (even the resource's owner) is 401 username_mismatch", async () => {
    for (const [path, user, acting] of [
      [userPath(), 'bob', 'alice'],
      [teamPath(), 'bob', 'dave'],
      [userPath(), 'alice', 'alice2'],
      [teamPath(), 'bob', ''],
    ] as const) {
      const response = await write(path, user, acting);
      expect(response.statusCode, `${user} as ${acting}`).toBe(401);
      expect(response.json().error.code).toBe('username_mismatch');
    }
  });
});

describe("the Python SDK's own requests to a team resource URL under a prefix", () => {
  let app: FastifyInstance | undefined;
  afterEach(() => app?.close());

  it('stores every record of an editor member acting as themself as sent; a viewer is refused, not lost silently', async () => {
    const corpus = JSON.parse(
      readFileSync(new URL('../fixtures/sdk-corpus/python-sdk.json', import.meta.url), 'utf8'),
    ) as { cases: { name: string; body: string }[] };
    // One-record requests only (the corpus also has a multi-record body and a non-JSON one).
    const bodies = corpus.cases
      .map((c) => c.body.replace(/"resource_id": ?"[0-9a-f-]{36}"/, `"resource_id": "${PLATFORM}"`))
      .filter((body) => {
        try {
          return (JSON.parse(body) as { logs: unknown[] }).logs.length === 1;
        } catch {
          return false;
        }
      });
    expect(bodies.length).toBeGreaterThan(10);
    app = build({ pathPrefix: '/DevTools' });
    const url = `/DevTools${teamPath()}/logs/`;
    const post = (user: User, body: string) =>
      app?.inject({
        method: 'POST',
        url,
        headers: {
          'x-api-key': KEY[user],
          'x-user-username': user,
          'content-type': 'application/json',
        },
        payload: body,
      });

    for (const body of bodies) expect((await post('bob', body))?.statusCode).toBe(202);
    const viewer = await post('carol', bodies[0] as string);
    expect(viewer?.statusCode).toBe(403);

    const read = await send(app, 'GET', `${url}?order=asc&limit=1000`, 'carol');
    const stored = read.json().logs as Record<string, unknown>[];
    expect(stored).toHaveLength(bodies.length);
    // Read back in time order, which is not the order sent: compare what was sent with what
    // was stored as sorted lists of (message, level, extra, user).
    const key = (log: Record<string, unknown>, user: unknown) =>
      JSON.stringify([log.message, log.level, log.extra, user]);
    const sent = bodies.map((body) =>
      key((JSON.parse(body) as { logs: Record<string, unknown>[] }).logs[0] ?? {}, 'bob'),
    );
    expect(stored.map((log) => key(log, log.user)).sort()).toEqual(sent.sort());
  });
});
