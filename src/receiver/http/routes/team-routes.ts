import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  isUsername,
  RESOURCE_KEY_PATTERN,
  USERNAME_PATTERN,
} from '../../../contract/identifiers.js';
import { receiverError } from '../errors.js';
import { principalOf } from '../request-access.js';
import { withSchemaTypes } from '../schema-types.js';
import { keyFromName } from './key-from-name.js';
import { resourceView } from './resource-view.js';
import { apiResourceSchema, errorResponses } from './schemas.js';

const ROLES = ['viewer', 'editor', 'admin'] as const;

const teamParamsSchema = {
  type: 'object',
  required: ['team'],
  properties: { team: { type: 'string' } },
} as const;

const memberParamsSchema = {
  type: 'object',
  required: ['team', 'username'],
  properties: { team: { type: 'string' }, username: { type: 'string' } },
} as const;

const memberSchema = {
  type: 'object',
  required: ['username', 'role'],
  properties: { username: { type: 'string' }, role: { type: 'string', enum: ROLES } },
} as const;

/** A team as its members see it: the caller's own role and every member. */
const teamSchema = {
  type: 'object',
  required: ['name', 'role', 'created_at', 'members'],
  properties: {
    name: { type: 'string' },
    role: { type: 'string', enum: ROLES },
    created_at: { type: 'string' },
    members: { type: 'array', items: memberSchema },
  },
} as const;

const conflict = (message: string) => receiverError('conflict', message);

const lastAdmin = () =>
  conflict('a team keeps at least one admin: make another member admin first');

function teamOf(request: FastifyRequest) {
  const access = request.teamAccess;
  if (!access) throw new Error(`${request.routeOptions.url} ran without apiAccess`);
  return access;
}

/**
 * `/api/teams`: teams own resources like accounts do (docs/receiver.md, "Teams"). Any member
 * reads the team; its admins manage members and create the team's resources; a member may
 * leave. A team always keeps one admin.
 */
export async function teamRoutes(fastify: FastifyInstance) {
  const app = withSchemaTypes(fastify);
  const { store } = app.receiver;
  const { directory, teams } = store;
  const hooks = (...access: Parameters<FastifyInstance['apiAccess']>) => [
    app.admitLoad,
    app.apiAccess(...access),
    app.rateLimit,
  ];

  app.post(
    '/api/teams',
    {
      schema: {
        summary: 'Create a team; the caller becomes its admin',
        tags: ['teams'],
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', pattern: USERNAME_PATTERN } },
        },
        response: { 201: teamSchema, ...errorResponses },
      },
      onRequest: hooks('teams.create'),
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { name } = request.body;
      const team = store.transaction(() => {
        if (teams.byName(name)) throw conflict(`team ${name} exists`);
        const created = teams.create(name);
        teams.setMember(created.id, principal.accountId, 'admin');
        return created;
      });
      return reply.code(201).send({
        name: team.name,
        role: 'admin',
        created_at: team.createdAt,
        members: teams.members(team.id),
      });
    },
  );

  app.get(
    '/api/teams',
    {
      schema: {
        summary: 'Teams the caller is a member of, with its role',
        tags: ['teams'],
        response: {
          200: {
            type: 'object',
            required: ['teams'],
            properties: {
              teams: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['name', 'role', 'created_at'],
                  properties: {
                    name: { type: 'string' },
                    role: { type: 'string', enum: ROLES },
                    created_at: { type: 'string' },
                  },
                },
              },
            },
          },
          ...errorResponses,
        },
      },
      onRequest: hooks('teams.list'),
    },
    async (request) => ({
      teams: teams
        .teamsOf(principalOf(request).accountId)
        .map((team) => ({ name: team.name, role: team.role, created_at: team.createdAt })),
    }),
  );

  app.get(
    '/api/teams/:team',
    {
      schema: {
        summary: 'A team with its members (members only)',
        tags: ['teams'],
        params: teamParamsSchema,
        response: { 200: teamSchema, ...errorResponses },
      },
      onRequest: hooks('team.read'),
    },
    async (request) => {
      const { team, role } = teamOf(request);
      return {
        name: team.name,
        role,
        created_at: team.createdAt,
        members: teams.members(team.id),
      };
    },
  );

  app.put(
    '/api/teams/:team/members/:username',
    {
      schema: {
        summary: "Add a member or change a member's role (team admin)",
        tags: ['teams'],
        params: memberParamsSchema,
        body: {
          type: 'object',
          required: ['role'],
          additionalProperties: false,
          properties: { role: { type: 'string', enum: ROLES } },
        },
        response: { 200: memberSchema, 201: memberSchema, ...errorResponses },
      },
      onRequest: hooks('team.members.write'),
    },
    async (request, reply) => {
      const { team } = teamOf(request);
      const { username } = request.params;
      const { role } = request.body;
      const account = isUsername(username) ? directory.accountByUsername(username) : undefined;
      if (!account) throw receiverError('not_found', 'account not found');
      const added = store.transaction(() => {
        const current = teams.roleOf(team.id, account.id);
        if (current === 'admin' && role !== 'admin' && teams.adminCount(team.id) === 1) {
          throw lastAdmin();
        }
        teams.setMember(team.id, account.id, role);
        return current === undefined;
      });
      return reply.code(added ? 201 : 200).send({ username, role });
    },
  );

  app.delete(
    '/api/teams/:team/members/:username',
    {
      schema: {
        summary: 'Remove a member (team admin), or leave the team (the member)',
        tags: ['teams'],
        params: memberParamsSchema,
        response: { 204: { type: 'null' }, ...errorResponses },
      },
      onRequest: hooks('team.members.write', 'team.members.leave'),
    },
    async (request, reply) => {
      const { team } = teamOf(request);
      const { username } = request.params;
      const account = isUsername(username) ? directory.accountByUsername(username) : undefined;
      const removed =
        account !== undefined &&
        store.transaction(() => {
          const current = teams.roleOf(team.id, account.id);
          if (current === 'admin' && teams.adminCount(team.id) === 1) throw lastAdmin();
          // Access, settings, notifications and pending webhooks end in one transaction.
          return teams.removeMember(team.id, account.id);
        });
      if (!removed) throw receiverError('not_found', 'member not found');
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/teams/:team/resources',
    {
      schema: {
        summary: 'Create a resource owned by the team (team admin)',
        tags: ['teams', 'resources'],
        params: teamParamsSchema,
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 200 },
            key: { type: 'string', pattern: RESOURCE_KEY_PATTERN },
          },
        },
        response: { 201: apiResourceSchema, ...errorResponses },
      },
      onRequest: hooks('team.resources.create'),
    },
    async (request, reply) => {
      const { team } = teamOf(request);
      const body = request.body;
      const key = body.key ?? keyFromName(body.name);
      const resource = store.transaction(() => {
        if (directory.resourceByTeamKey(team.name, key)) {
          throw conflict(`team ${team.name} already has a resource with key ${key}`);
        }
        return directory.createResource({ teamId: team.id, key, name: body.name });
      });
      request.notes.resource = resource.uuid;
      return reply.code(201).send(resourceView(resource, 'owner'));
    },
  );
}
