import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildReceiver } from '../../src/receiver/index.js';

/**
 * The permission model of test/receiver/permissions.property.test.ts extended to every
 * API-key endpoint that touches a resource's data: JSON ingest, OTLP ingest, read-back,
 * by-key lookup and notifications. Random worlds (owners, shares) and random requests with any
 * combination of key, `X-User-Username`, path owner, UUID and resource key; the answer must be
 * what the model says, and afterwards every resource holds only what its writers wrote, every
 * read shows only that resource, and every inbox only its owner's notifications.
 */
const USERS = ['ann', 'ben', 'cat'] as const;
type User = (typeof USERS)[number];
type Role = 'owner' | 'editor' | 'viewer';
const keyOf = (user: string) => `${user}-tenancy-key-00000001`;
const PHANTOM = '00000000-0000-4000-8000-000000000000';
const uuidOf = (i: number) => `aaaaaaaa-0000-4000-8000-${String(i).padStart(12, '0')}`;

interface World {
  resources: { owner: User; shares: Partial<Record<User, 'viewer' | 'editor'>> }[];
}

const world: fc.Arbitrary<World> = fc.record({
  resources: fc.array(
    fc.record({
      owner: fc.constantFrom(...USERS),
      shares: fc.record(
        {
          ann: fc.constantFrom('viewer' as const, 'editor' as const),
          ben: fc.constantFrom('viewer' as const, 'editor' as const),
          cat: fc.constantFrom('viewer' as const, 'editor' as const),
        },
        { requiredKeys: [] },
      ),
    }),
    { minLength: 1, maxLength: 4 },
  ),
});

const request = fc.record({
  op: fc.constantFrom('ingest', 'otlp', 'read', 'byKey', 'notifications', 'readOthersNotification'),
  caller: fc.constantFrom(...USERS),
  key: fc.constantFrom('own', 'own', 'own', 'own', 'other', 'bogus', 'none'),
  claimed: fc.constantFrom('none', 'none', 'none', 'self', 'other'),
  pathOwner: fc.constantFrom('actual', 'actual', 'caller', ...USERS),
  resource: fc.nat(4),
});

function roleOf(w: World, index: number, user: User): Role | undefined {
  const r = w.resources[index];
  if (!r) return undefined;
  if (r.owner === user) return 'owner';
  return r.shares[user];
}

async function run(
  w: World,
  requests: (typeof request extends fc.Arbitrary<infer T> ? T : never)[],
) {
  const app = buildReceiver({
    seed: {
      accounts: USERS.map((username) => ({ username, api_keys: [keyOf(username)] })),
      resources: w.resources.map((r, i) => ({
        owner: r.owner,
        uuid: uuidOf(i),
        key: `res-${i}`,
        collaborators: Object.entries(r.shares)
          .filter(([user]) => user !== r.owner)
          .map(([username, role]) => ({ username, role })),
      })),
    },
    limits: { rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000 },
    healthChecks: { pollMillis: 60_000 },
  });
  const written = new Map<string, Set<string>>();
  try {
    await app.ready();
    for (const [step, req] of requests.entries()) {
      const other = USERS[(USERS.indexOf(req.caller) + 1) % USERS.length] as User;
      const headers: Record<string, string> = {};
      if (req.key === 'own') headers['x-api-key'] = keyOf(req.caller);
      if (req.key === 'other') headers['x-api-key'] = keyOf(other);
      if (req.key === 'bogus') headers['x-api-key'] = `${keyOf(req.caller)}x`;
      // The account the key really authenticates.
      const who: User | undefined =
        req.key === 'own' ? req.caller : req.key === 'other' ? other : undefined;
      if (req.claimed === 'self') headers['x-user-username'] = who ?? req.caller;
      if (req.claimed === 'other') headers['x-user-username'] = who === 'ann' ? 'ben' : 'ann';

      const index = req.resource;
      const exists = index < w.resources.length;
      const uuid = exists ? uuidOf(index) : PHANTOM;
      const actualOwner = w.resources[index]?.owner ?? 'ann';
      const pathOwner =
        req.pathOwner === 'actual'
          ? actualOwner
          : req.pathOwner === 'caller'
            ? req.caller
            : req.pathOwner;
      const role = who && exists && pathOwner === actualOwner ? roleOf(w, index, who) : undefined;
      const message = `${who ?? 'nobody'}|${uuid}|${step}`;

      let expected: number;
      if (req.key === 'none' || req.key === 'bogus') expected = 401;
      else if (req.claimed === 'other') expected = 401;
      else if (req.op === 'notifications' || req.op === 'readOthersNotification') expected = 0;
      else if (role === undefined) expected = 404;
      else if ((req.op === 'ingest' || req.op === 'otlp') && role === 'viewer') expected = 403;
      else expected = 200;

      let response: Awaited<ReturnType<typeof app.inject>>;
      const base = `/u/${pathOwner}/resources`;
      switch (req.op) {
        case 'ingest':
          response = await app.inject({
            method: 'POST',
            url: `${base}/${uuid}/logs/`,
            headers: { ...headers, 'content-type': 'application/json' },
            payload: { logs: [{ level: 'error', message }] },
          });
          break;
        case 'otlp':
          response = await app.inject({
            method: 'POST',
            url: `${base}/${uuid}/v1/logs`,
            headers: { ...headers, 'content-type': 'application/json' },
            payload: {
              resourceLogs: [
                {
                  scopeLogs: [
                    { logRecords: [{ severityNumber: 17, body: { stringValue: message } }] },
                  ],
                },
              ],
            },
          });
          break;
        case 'read':
          response = await app.inject({ url: `${base}/${uuid}/logs/?limit=1000`, headers });
          if (response.statusCode === 200) {
            for (const log of response.json().logs as { message: string }[]) {
              expect(log.message.split('|')[1], `read of ${uuid} shows ${log.message}`).toBe(uuid);
            }
          }
          break;
        case 'byKey':
          response = await app.inject({
            url: `${base}/by-key/${exists ? `res-${index}` : 'res-none'}`,
            headers,
          });
          if (response.statusCode === 200) expect(response.json().uuid).toBe(uuid);
          break;
        case 'notifications':
          response = await app.inject({ url: '/api/notifications?limit=200', headers });
          if (response.statusCode === 200 && who) {
            for (const n of response.json().notifications as { resource: { uuid: string } }[]) {
              const i = Number(n.resource.uuid.slice(-12));
              expect(roleOf(w, i, who), `${who} sees ${n.resource.uuid}`).toBeDefined();
            }
          }
          expected = expected === 0 ? 200 : expected;
          break;
        default: {
          // Someone else's notification id: 404, never theirs.
          const ids = app.receiver.store.db
            .prepare(
              'SELECT n.id FROM notifications n JOIN accounts a ON a.id = n.account_id WHERE a.username != ?',
            )
            .all(who ?? '') as { id: number }[];
          const id = ids[step % Math.max(1, ids.length)]?.id ?? 999_999;
          response = await app.inject({
            method: 'POST',
            url: `/api/notifications/${id}/read`,
            headers,
          });
          expected = expected === 0 ? 404 : expected;
        }
      }
      const status = response.statusCode;
      const label = `step ${step}: ${JSON.stringify(req)} as ${who} (${role ?? 'none'}) → ${status} ${response.body.slice(0, 200)}`;
      if (expected === 200) expect(status >= 200 && status < 300, label).toBe(true);
      else expect(status, label).toBe(expected);
      if ((req.op === 'ingest' || req.op === 'otlp') && status < 300) {
        const set = written.get(uuid) ?? new Set();
        set.add(message);
        written.set(uuid, set);
      }
    }

    // Stored: every resource holds exactly what its owner and editors wrote to it.
    const rows = app.receiver.store.db
      .prepare('SELECT r.uuid, l.message FROM logs l JOIN resources r ON r.id = l.resource_id')
      .all() as { uuid: string; message: string }[];
    for (const row of rows) {
      const [writer, target] = row.message.split('|');
      expect(target, `stored in ${row.uuid}: ${row.message}`).toBe(row.uuid);
      const role = roleOf(w, Number(row.uuid.slice(-12)), writer as User);
      expect(role === 'owner' || role === 'editor', `${writer} wrote to ${row.uuid}`).toBe(true);
    }
    expect(rows.length).toBe([...written.values()].reduce((n, s) => n + s.size, 0));

    // Notifications (after the alert step, which runs after the commit): only members'.
    await sleep(20);
    const inbox = app.receiver.store.db
      .prepare(
        `SELECT a.username, r.uuid FROM notifications n JOIN accounts a ON a.id = n.account_id
           JOIN resources r ON r.id = n.resource_id`,
      )
      .all() as { username: User; uuid: string }[];
    for (const entry of inbox) {
      expect(roleOf(w, Number(entry.uuid.slice(-12)), entry.username)).toBeDefined();
    }
  } finally {
    await app.close();
  }
}

describe('tenancy model over every data endpoint (property-based)', () => {
  it('no key, UUID, username or resource-key combination reads or writes across tenants', async () => {
    await fc.assert(
      fc.asyncProperty(world, fc.array(request, { minLength: 1, maxLength: 50 }), run),
      { numRuns: Number(process.env.RESLOG_TENANCY_RUNS ?? 60), seed: 8_2026 },
    );
  }, 120_000);
});
