import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildReceiver } from '../../src/receiver/index.js';

/**
 * The permission matrix of docs/receiver.md as an independent model: random accounts,
 * teams, resources (of accounts and of teams), shares, team memberships and requests; the
 * receiver must answer what the model says, every time (2xx exactly when allowed, 404 for
 * what the caller may not see, 403 for what it may see but not do).
 */

type Role = 'owner' | 'editor' | 'viewer';
type TeamRole = 'viewer' | 'editor' | 'admin';
const USERS = ['ann', 'ben', 'cat', 'dan'] as const;
const TEAMS = ['crew', 'ops'] as const;
/** docs/receiver.md, "Teams": a team role acts as this role on the team's resources. */
const AS_RESOURCE_ROLE: Record<TeamRole, Role> = {
  viewer: 'viewer',
  editor: 'editor',
  admin: 'owner',
};
const RANK: Record<Role, number> = { viewer: 1, editor: 2, owner: 3 };
const keyOf = (user: string) => `${user}-property-key-000001`;
const PHANTOM = '00000000-0000-4000-8000-000000000000';

/** docs/receiver.md, "Permissions": who may do what on a resource they can see. */
const MATRIX: Record<string, readonly Role[]> = {
  read: ['owner', 'editor', 'viewer'],
  update: ['owner'],
  delete: ['owner'],
  listCollaborators: ['owner'],
  share: ['owner'],
  unshareOther: ['owner'],
  leave: ['editor', 'viewer'],
  getSettings: ['owner', 'editor', 'viewer'],
  putSettings: ['owner', 'editor', 'viewer'],
  getHealth: ['owner', 'editor', 'viewer'],
  putHealth: ['owner', 'editor'],
  putCheck: ['owner', 'editor'],
  deleteCheck: ['owner', 'editor'],
  readLogs: ['owner', 'editor', 'viewer'],
  ingest: ['owner', 'editor'],
};

/** docs/receiver.md, "Teams": who may do what on a team they are a member of. */
const TEAM_MATRIX: Record<string, readonly TeamRole[]> = {
  teamRead: ['viewer', 'editor', 'admin'],
  teamPut: ['admin'],
  teamRemoveOther: ['admin'],
  teamLeave: ['viewer', 'editor', 'admin'],
  createTeamResource: ['admin'],
};

const OPS = [
  ...Object.keys(MATRIX).filter((op) => op !== 'unshareOther' && op !== 'leave'),
  'unshare',
];
const TEAM_OPS = ['teamRead', 'teamPut', 'teamRemove', 'createTeamResource'];

interface Command {
  caller: number;
  /** When set, the caller is picked among the resource's (or team's) members. */
  asMember: boolean;
  op: string;
  resource: number;
  target: number;
  role: 'viewer' | 'editor';
  team: number;
  teamRole: TeamRole;
}

interface ModelResource {
  uuid: string;
  /** The owning account, or the owning team: exactly one is set. */
  owner?: string;
  team?: string;
  members: Map<string, 'viewer' | 'editor'>;
  deleted: boolean;
  hasCheck: boolean;
}

type ModelTeams = Map<string, Map<string, TeamRole>>;

const command = fc.record({
  caller: fc.nat(USERS.length - 1),
  asMember: fc.boolean(),
  op: fc.oneof(
    { weight: 1, arbitrary: fc.constant('create') },
    { weight: 4, arbitrary: fc.constant('share') },
    { weight: 10, arbitrary: fc.constantFrom(...OPS) },
    { weight: 1, arbitrary: fc.constant('createTeam') },
    { weight: 1, arbitrary: fc.constant('createTeamResource') },
    { weight: 4, arbitrary: fc.constant('teamPut') },
    { weight: 2, arbitrary: fc.constantFrom('teamRead', 'teamRemove') },
  ),
  // 20 is a UUID that was never created; other values pick a created (maybe deleted) one.
  resource: fc.nat(20),
  target: fc.nat(USERS.length - 1),
  role: fc.constantFrom('viewer' as const, 'editor' as const),
  team: fc.nat(TEAMS.length - 1),
  teamRole: fc.constantFrom('viewer' as const, 'editor' as const, 'admin' as const),
});

/** Owner, direct share and team membership: the highest role wins. */
function roleOf(
  resource: ModelResource | undefined,
  user: string,
  teams: ModelTeams,
): Role | undefined {
  if (!resource || resource.deleted) return undefined;
  if (resource.owner === user) return 'owner';
  const teamRole = resource.team === undefined ? undefined : teams.get(resource.team)?.get(user);
  const roles = [resource.members.get(user), teamRole && AS_RESOURCE_ROLE[teamRole]].filter(
    (role): role is Role => role !== undefined,
  );
  return roles.sort((a, b) => RANK[b] - RANK[a])[0];
}

async function run(commands: Command[]) {
  const app: FastifyInstance = buildReceiver({
    seed: { accounts: USERS.map((username) => ({ username, api_keys: [keyOf(username)] })) },
    limits: { rateLimitBurst: 100_000, rateLimitPerSecond: 100_000 },
    healthChecks: { pollMillis: 60_000 },
  });
  const resources: ModelResource[] = [];
  const teams: ModelTeams = new Map();
  try {
    for (const [step, cmd] of commands.entries()) {
      if (TEAM_OPS.includes(cmd.op) || cmd.op === 'createTeam') {
        await teamStep(app, teams, resources, cmd, step);
        continue;
      }
      const picked = cmd.resource === 20 ? undefined : resources[cmd.resource % resources.length];
      const members =
        picked && !picked.deleted
          ? [
              ...(picked.owner === undefined ? [] : [picked.owner]),
              ...picked.members.keys(),
              ...(picked.team === undefined ? [] : (teams.get(picked.team)?.keys() ?? [])),
            ]
          : [];
      const caller = (
        cmd.asMember && members.length > 0
          ? members[cmd.caller % members.length]
          : USERS[cmd.caller]
      ) as string;
      const target = USERS[cmd.target] as string;
      const key = keyOf(caller);
      const send = (
        method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        url: string,
        payload?: object,
      ) =>
        app.inject({ method, url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });

      if (cmd.op === 'create') {
        const response = await send('POST', '/api/resources', { name: `Resource ${step}` });
        expect(response.statusCode).toBe(201);
        resources.push({
          uuid: response.json().uuid,
          owner: caller,
          members: new Map(),
          deleted: false,
          hasCheck: false,
        });
        continue;
      }
      const model = picked;
      const uuid = model?.uuid ?? PHANTOM;
      // The data plane path names the owner: an account or a team.
      const dataPath =
        model?.team !== undefined
          ? `/team/${model.team}/resources/${uuid}`
          : `/u/${model?.owner ?? 'ann'}/resources/${uuid}`;
      const base = `/api/resources/${uuid}`;
      const role = roleOf(model, caller, teams);
      const action = cmd.op === 'unshare' ? (target === caller ? 'leave' : 'unshareOther') : cmd.op;
      const allowed = role !== undefined && (MATRIX[action] ?? []).includes(role);
      let expected = role === undefined ? 404 : allowed ? 200 : 403;
      let response: Awaited<ReturnType<typeof send>>;
      switch (cmd.op) {
        case 'read':
          response = await send('GET', base);
          break;
        case 'update':
          response = await send('PATCH', base, { name: `renamed ${step}` });
          break;
        case 'delete':
          response = await send('DELETE', base);
          if (allowed && model) model.deleted = true;
          break;
        case 'listCollaborators':
          response = await send('GET', `${base}/collaborators`);
          break;
        case 'share':
          response = await send('PUT', `${base}/collaborators/${target}`, { role: cmd.role });
          if (allowed && model) {
            if (target === model.owner) expected = 400;
            else model.members.set(target, cmd.role);
          }
          break;
        case 'unshare':
          response = await send('DELETE', `${base}/collaborators/${target}`);
          if (allowed && model) {
            if (!model.members.has(target)) expected = 404;
            model.members.delete(target);
          }
          break;
        case 'getSettings':
          response = await send('GET', `${base}/notification-settings`);
          break;
        case 'putSettings':
          response = await send('PUT', `${base}/notification-settings`, {
            log_alert_level: 'critical',
          });
          break;
        case 'getHealth':
          response = await send('GET', `${base}/health`);
          break;
        case 'putHealth':
          response = await send('PUT', `${base}/health`, {
            state: cmd.role === 'viewer' ? 'degraded' : 'healthy',
          });
          break;
        case 'putCheck':
          response = await send('PUT', `${base}/health-check`, {
            url: 'http://127.0.0.1:9/',
            interval_seconds: 3600,
          });
          if (allowed && model) model.hasCheck = true;
          break;
        case 'deleteCheck':
          response = await send('DELETE', `${base}/health-check`);
          if (allowed && model) {
            if (!model.hasCheck) expected = 404;
            model.hasCheck = false;
          }
          break;
        case 'readLogs':
          response = await send('GET', `${dataPath}/logs/`);
          break;
        case 'ingest':
          response = await send('POST', `${dataPath}/logs/`, {
            message: `m${step}`,
          });
          break;
        default:
          throw new Error(`unknown op ${cmd.op}`);
      }
      const status = response.statusCode;
      const label = `step ${step}: ${caller} (${role ?? 'stranger'}) ${cmd.op} ${target} → ${status} ${response.body}`;
      if (expected === 200) expect(status >= 200 && status < 300, label).toBe(true);
      else expect(status, label).toBe(expected);
      if (status === 404 && expected === 404 && role === undefined) {
        // Resource paths answer the service's code; the management API its own.
        const logsPath = cmd.op === 'readLogs' || cmd.op === 'ingest';
        expect(response.json().error.code, label).toBe(logsPath ? 'invalid_resource' : 'not_found');
      }
    }
    // Every account lists exactly what the model says it can see, with its role.
    for (const user of USERS) {
      const listed = (
        await app.inject({ url: '/api/resources', headers: { 'x-api-key': keyOf(user) } })
      ).json().resources as { uuid: string; role: Role }[];
      const expectedList = resources
        .filter((r) => roleOf(r, user, teams) !== undefined)
        .map((r) => `${r.uuid}:${roleOf(r, user, teams)}`)
        .sort();
      expect(listed.map((r) => `${r.uuid}:${r.role}`).sort()).toEqual(expectedList);
      const myTeams = (
        await app.inject({ url: '/api/teams', headers: { 'x-api-key': keyOf(user) } })
      ).json().teams as { name: string; role: TeamRole }[];
      expect(myTeams.map((t) => `${t.name}:${t.role}`)).toEqual(
        [...teams]
          .filter(([, members]) => members.has(user))
          .map(([name, members]) => `${name}:${members.get(user)}`)
          .sort(),
      );
    }
  } finally {
    await app.close();
  }
}

/** A team request: the receiver must answer what the team model says. */
async function teamStep(
  app: FastifyInstance,
  teams: ModelTeams,
  resources: ModelResource[],
  cmd: Command,
  step: number,
) {
  const name = TEAMS[cmd.team] as string;
  const team = teams.get(name);
  const members = team ? [...team.keys()] : [];
  const caller = (
    cmd.asMember && members.length > 0 ? members[cmd.caller % members.length] : USERS[cmd.caller]
  ) as string;
  const target = USERS[cmd.target] as string;
  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      headers: { 'x-api-key': keyOf(caller) },
      ...(payload ? { payload } : {}),
    });
  const admins = () => [...(team?.values() ?? [])].filter((r) => r === 'admin').length;

  if (cmd.op === 'createTeam') {
    const response = await send('POST', '/api/teams', { name });
    expect(response.statusCode, response.body).toBe(team ? 409 : 201);
    if (!team) teams.set(name, new Map([[caller, 'admin']]));
    return;
  }
  const role = team?.get(caller);
  const action =
    cmd.op === 'teamRemove' ? (target === caller ? 'teamLeave' : 'teamRemoveOther') : cmd.op;
  const allowed = role !== undefined && (TEAM_MATRIX[action] ?? []).includes(role);
  let expected = role === undefined ? 404 : allowed ? 200 : 403;
  let response: Awaited<ReturnType<typeof send>>;
  switch (cmd.op) {
    case 'teamRead':
      response = await send('GET', `/api/teams/${name}`);
      break;
    case 'teamPut':
      response = await send('PUT', `/api/teams/${name}/members/${target}`, {
        role: cmd.teamRole,
      });
      if (allowed && team) {
        // A team keeps one admin: the last one cannot be demoted.
        if (team.get(target) === 'admin' && cmd.teamRole !== 'admin' && admins() === 1) {
          expected = 409;
        } else {
          team.set(target, cmd.teamRole);
        }
      }
      break;
    case 'teamRemove':
      response = await send('DELETE', `/api/teams/${name}/members/${target}`);
      if (allowed && team) {
        if (!team.has(target)) expected = 404;
        else if (team.get(target) === 'admin' && admins() === 1) expected = 409;
        else team.delete(target);
      }
      break;
    case 'createTeamResource':
      response = await send('POST', `/api/teams/${name}/resources`, { name: `Team ${step}` });
      if (allowed) {
        resources.push({
          uuid: response.json().uuid,
          team: name,
          members: new Map(),
          deleted: false,
          hasCheck: false,
        });
      }
      break;
    default:
      throw new Error(`unknown team op ${cmd.op}`);
  }
  const status = response.statusCode;
  const label = `step ${step}: ${caller} (${role ?? 'stranger'} of ${name}) ${cmd.op} ${target} ${cmd.teamRole} → ${status} ${response.body}`;
  if (expected === 200) expect(status >= 200 && status < 300, label).toBe(true);
  else expect(status, label).toBe(expected);
}

describe('permission model (property-based)', () => {
  it('the receiver answers every random request exactly as the permission model says', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(USERS.length - 1), { minLength: 1, maxLength: 3 }),
        fc.array(command, { minLength: 1, maxLength: 60, size: 'max' }),
        fc.array(fc.nat(USERS.length - 1), { minLength: 1, maxLength: 2 }),
        (owners, commands, teamAdmins) => {
          const start = {
            asMember: false,
            resource: 0,
            target: 0,
            role: 'viewer' as const,
            teamRole: 'viewer' as const,
          };
          // Every run starts with teams and resources of random owners, then random requests.
          return run([
            ...teamAdmins.map((caller, team) => ({ ...start, caller, team, op: 'createTeam' })),
            ...teamAdmins.map((caller, team) => ({
              ...start,
              caller,
              team,
              op: 'createTeamResource',
            })),
            ...owners.map((caller) => ({ ...start, caller, team: 0, op: 'create' })),
            ...commands,
          ]);
        },
      ),
      { numRuns: 50 },
    );
  }, 60_000);
});
