import type { FastifyInstance } from 'fastify';
import { isResourceKey, isUuid, USERNAME_PATTERN } from '../../../contract/identifiers.js';
import { applySeed, validateSeed } from '../../seed.js';
import { generateApiKey } from '../api-keys.js';
import { receiverError, SeedError } from '../errors.js';
import { ownerOf } from './api-schemas.js';
import { errorResponses, patterns } from './schemas.js';

const conflict = (message: string) => receiverError('conflict', message);

const adminResourceSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    uuid: { type: 'string' },
    key: { type: 'string' },
    name: { type: 'string' },
    owner: { type: 'string' },
    team: { type: 'string' },
    health: { type: 'string' },
    collaborators: {
      type: 'array',
      items: {
        type: 'object',
        properties: { username: { type: 'string' }, role: { type: 'string' } },
      },
    },
  },
} as const;

/** Control plane: accounts, keys, resources, seed and reset (admin token). */
export async function adminRoutes(app: FastifyInstance) {
  const { store } = app.receiver;
  const { directory } = store;
  app.addHook('onRequest', app.adminAccess);

  app.post(
    '/_receiver/accounts',
    {
      schema: {
        body: {
          type: 'object',
          required: ['username'],
          additionalProperties: false,
          properties: { username: { type: 'string', pattern: USERNAME_PATTERN } },
        },
        response: {
          201: { type: 'object', properties: { username: { type: 'string' } } },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { username } = request.body as { username: string };
      if (directory.accountByUsername(username)) throw conflict(`account ${username} exists`);
      directory.createAccount(username);
      return reply.code(201).send({ username });
    },
  );

  app.post(
    '/_receiver/accounts/:username/keys',
    {
      schema: {
        params: { type: 'object', properties: { username: { type: 'string' } } },
        response: {
          201: {
            type: 'object',
            properties: {
              username: { type: 'string' },
              api_key: { type: 'string' },
              label: { type: 'string' },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { username } = request.params as { username: string };
      const account = directory.accountByUsername(username);
      if (!account) throw receiverError('not_found', 'account not found');
      const { key, label } = generateApiKey();
      directory.addApiKey(account.id, key, label);
      // The only time the plaintext key exists outside the client: it is not stored.
      return reply.code(201).send({ username, api_key: key, label });
    },
  );

  app.post(
    '/_receiver/resources',
    {
      schema: {
        body: {
          type: 'object',
          required: ['owner', 'key'],
          additionalProperties: false,
          properties: {
            owner: { type: 'string', pattern: patterns.username },
            key: { type: 'string', pattern: patterns.resourceKey },
            name: { type: 'string', minLength: 1, maxLength: 200 },
            uuid: { type: 'string' },
            collaborators: {
              type: 'array',
              items: {
                type: 'object',
                required: ['username', 'role'],
                properties: {
                  username: { type: 'string' },
                  role: { type: 'string', enum: ['viewer', 'editor'] },
                },
              },
            },
          },
        },
        response: { 201: adminResourceSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body as {
        owner: string;
        key: string;
        name?: string;
        uuid?: string;
        collaborators?: { username: string; role: 'viewer' | 'editor' }[];
      };
      if (body.uuid !== undefined && !isUuid(body.uuid)) {
        throw receiverError('invalid_body', 'uuid must be a UUID');
      }
      if (!isResourceKey(body.key)) {
        throw receiverError('invalid_body', 'key is not a resource key');
      }
      const owner = directory.accountByUsername(body.owner);
      if (!owner) throw receiverError('not_found', 'owner account not found');
      const resource = store.transaction(() => {
        if (body.uuid && directory.resourceByUuid(body.uuid)) throw conflict('uuid is taken');
        if (directory.resourceByOwnerKey(body.owner, body.key)) {
          throw conflict(`${body.owner} already has a resource with key ${body.key}`);
        }
        const created = directory.createResource({
          ownerId: owner.id,
          key: body.key,
          name: body.name ?? body.key,
          ...(body.uuid ? { uuid: body.uuid } : {}),
        });
        for (const c of body.collaborators ?? []) {
          const account = directory.accountByUsername(c.username);
          if (!account || account.id === owner.id) {
            throw receiverError(
              'invalid_body',
              `collaborator ${c.username} is not another account`,
            );
          }
          directory.setCollaborator(created.id, account.id, c.role);
        }
        return created;
      });
      return reply.code(201).send({
        id: resource.id,
        uuid: resource.uuid,
        key: resource.key,
        name: resource.name,
        owner: resource.owner,
        health: resource.health,
        collaborators: directory.collaborators(resource.id),
      });
    },
  );

  const countsSchema = {
    type: 'object',
    properties: {
      accounts: { type: 'integer' },
      teams: { type: 'integer' },
      resources: { type: 'integer' },
    },
  } as const;

  app.post(
    '/_receiver/seed',
    { schema: { body: { type: 'object' }, response: { 200: countsSchema, ...errorResponses } } },
    async (request) => {
      try {
        return applySeed(store, validateSeed(request.body));
      } catch (error) {
        if (error instanceof SeedError) {
          throw receiverError('invalid_body', error.message);
        }
        throw error;
      }
    },
  );

  app.post(
    '/_receiver/reset',
    {
      schema: {
        querystring: { type: 'object', properties: { reseed: { type: 'boolean' } } },
        response: { 200: countsSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { reseed } = request.query as { reseed?: boolean };
      store.reset();
      app.receiver.faults.clear();
      app.receiver.journal.clear();
      app.receiver.rateLimiter.reset();
      if (reseed && app.receiver.seed) applySeed(store, app.receiver.seed);
      return directory.counts();
    },
  );

  app.get(
    '/internal/resources/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } },
        response: {
          200: {
            type: 'object',
            properties: {
              ...adminResourceSchema.properties,
              created_at: { type: 'string' },
              log_count: { type: 'integer' },
              notification_settings: {
                type: 'array',
                items: { type: 'object', additionalProperties: true },
              },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      const resource = directory.resourceById(id);
      if (!resource) throw receiverError('not_found', 'resource not found');
      return {
        id: resource.id,
        uuid: resource.uuid,
        key: resource.key,
        name: resource.name,
        ...ownerOf(resource),
        health: resource.health,
        created_at: resource.createdAt,
        collaborators: directory.collaborators(resource.id),
        notification_settings: store.settings
          .members(resource.id)
          .map((member) => ({ username: member.username, ...member.settings })),
        log_count: store.logs.count(resource.id),
      };
    },
  );
}
