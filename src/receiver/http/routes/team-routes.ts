import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RESOURCE_KEY_PATTERN, USERNAME_PATTERN } from '../../../contract/identifiers.js';
import { createTeamResource } from '../../manage/resource-management.js';
import { createTeam, removeTeamMember, setTeamMember } from '../../manage/team-management.js';
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
  const { teams } = store;
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
      const team = createTeam(store, principalOf(request).accountId, request.body.name);
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
      const { username } = request.params;
      const { role } = request.body;
      const { added } = setTeamMember(store, teamOf(request).team, username, role);
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
      removeTeamMember(store, teamOf(request).team, request.params.username);
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
      const { name, key = keyFromName(name) } = request.body;
      const resource = createTeamResource(store, teamOf(request).team, { key, name });
      request.notes.resource = resource.uuid;
      return reply.code(201).send(resourceView(resource, 'owner'));
    },
  );
}
