import type { FastifyInstance } from 'fastify';
import { isResourceKey, isUuid, USERNAME_PATTERN } from '../../../contract/identifiers.js';
import { generateApiKey } from '../../access/api-keys.js';
import { receiverError, SeedError } from '../../errors.js';
import { applySeed, validateSeed } from '../../seed.js';
import { withSchemaTypes } from '../schema-types.js';
import { ownerOf } from './resource-view.js';
import { errorResponses, patterns, resourceSummarySchema } from './schemas.js';

/**
 * The control plane, `/_receiver/*`: every route but the probes needs the admin token
 * (`adminAccess`); the probes (`probeRoutes`) need none.
 */
export async function controlPlaneRoutes(app: FastifyInstance) {
  app.register(adminRoutes);
  app.register(controlRoutes);
}

const conflict = (message: string) => receiverError('conflict', message);

/** A resource as the control plane shows it: the summary plus its numeric ID and members. */
const adminResourceSchema = {
  type: 'object',
  properties: {
    ...resourceSummarySchema.properties,
    id: { type: 'integer' },
    collaborators: {
      type: 'array',
      items: {
        type: 'object',
        properties: { username: { type: 'string' }, role: { type: 'string' } },
      },
    },
  },
} as const;

/** Accounts, keys, resources, seed and reset. */
async function adminRoutes(fastify: FastifyInstance) {
  const app = withSchemaTypes(fastify);
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
      const { username } = request.body;
      if (directory.accountByUsername(username)) throw conflict(`account ${username} exists`);
      directory.createAccount(username);
      return reply.code(201).send({ username });
    },
  );

  app.post(
    '/_receiver/accounts/:username/keys',
    {
      schema: {
        params: {
          type: 'object',
          required: ['username'],
          properties: { username: { type: 'string' } },
        },
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
      const { username } = request.params;
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
      const body = request.body;
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
      const { reseed } = request.query;
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
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer', minimum: 1 } },
        },
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
      const { id } = request.params;
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

const faultRuleSchema = {
  type: 'object',
  required: ['action'],
  additionalProperties: false,
  properties: {
    match: {
      type: 'object',
      additionalProperties: false,
      properties: { username: { type: 'string' }, resource: { type: 'string' } },
    },
    count: { type: 'integer', minimum: 1 },
    probability: { type: 'number', minimum: 0, maximum: 1 },
    seed: { type: 'integer' },
    action: {
      oneOf: [
        {
          type: 'object',
          required: ['status'],
          additionalProperties: false,
          properties: {
            status: { type: 'integer', minimum: 400, maximum: 599 },
            retryAfter: { type: 'integer', minimum: 0 },
          },
        },
        {
          type: 'object',
          required: ['delayMillis'],
          additionalProperties: false,
          properties: { delayMillis: { type: 'integer', minimum: 0, maximum: 60000 } },
        },
        {
          type: 'object',
          required: ['reset'],
          additionalProperties: false,
          properties: { reset: { const: true } },
        },
        {
          type: 'object',
          required: ['commitThenReset'],
          additionalProperties: false,
          properties: { commitThenReset: { const: true } },
        },
      ],
    },
  },
} as const;

const storedRuleSchema = {
  type: 'object',
  properties: {
    ...faultRuleSchema.properties,
    action: { type: 'object', additionalProperties: true },
    id: { type: 'string' },
    fired: { type: 'integer' },
  },
} as const;

/** For tests: faults, the request journal and the log wait. */
async function controlRoutes(fastify: FastifyInstance) {
  const app = withSchemaTypes(fastify);
  const { faults, journal, store, events } = app.receiver;
  app.addHook('onRequest', app.adminAccess);

  app.post(
    '/_receiver/faults',
    { schema: { body: faultRuleSchema, response: { 201: storedRuleSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(faults.add(request.body)),
  );
  app.get(
    '/_receiver/faults',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            properties: { faults: { type: 'array', items: storedRuleSchema } },
          },
          ...errorResponses,
        },
      },
    },
    async () => ({ faults: faults.list() }),
  );
  app.delete(
    '/_receiver/faults',
    { schema: { response: { 204: { type: 'null' }, ...errorResponses } } },
    async (_request, reply) => {
      faults.clear();
      return reply.code(204).send();
    },
  );
  app.delete(
    '/_receiver/faults/:id',
    {
      schema: {
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        response: { 204: { type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!faults.remove(request.params.id)) {
        throw receiverError('not_found', 'fault rule not found');
      }
      return reply.code(204).send();
    },
  );

  app.get(
    '/_receiver/requests',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            resource: { type: 'string' },
            limit: { type: 'integer', minimum: 1, maximum: 10000 },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              requests: { type: 'array', items: { type: 'object', additionalProperties: true } },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const query = request.query;
      return {
        requests: journal.list({
          ...(query.resource ? { resource: query.resource.toLowerCase() } : {}),
          ...(query.limit ? { limit: query.limit } : {}),
        }),
      };
    },
  );

  app.get(
    '/_receiver/logs/wait',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['resource'],
          properties: {
            resource: { type: 'string' },
            min: { type: 'integer', minimum: 0, default: 1 },
            timeout: { type: 'integer', minimum: 0, maximum: 60000, default: 5000 },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              resource: { type: 'string' },
              count: { type: 'integer' },
              satisfied: { type: 'boolean' },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const resource = isUuid(query.resource)
        ? store.directory.resourceByUuid(query.resource)
        : undefined;
      if (!resource) throw receiverError('not_found', 'resource not found');
      const answer = (count: number) => ({
        resource: resource.uuid,
        count,
        satisfied: count >= query.min,
      });
      const now = store.logs.count(resource.id);
      if (now >= query.min || query.timeout === 0) return answer(now);
      // Long poll: re-count after each commit to this resource, until enough or timeout.
      return new Promise((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          unsubscribe();
          reply.raw.off('close', finish);
          resolve(answer(store.logs.count(resource.id)));
        };
        const unsubscribe = events.subscribe(resource.id, () => {
          if (store.logs.count(resource.id) >= query.min) finish();
        });
        const timer = setTimeout(finish, query.timeout);
        reply.raw.once('close', finish);
      });
    },
  );
}

/** Liveness, readiness and Prometheus metrics: no token, so probes and scrapers need none. */
export async function probeRoutes(app: FastifyInstance) {
  const status = { type: 'object', properties: { status: { type: 'string' } } } as const;
  app.get('/_receiver/health/live', { schema: { response: { 200: status } } }, async () => ({
    status: 'live',
  }));
  app.get(
    '/_receiver/health/ready',
    { schema: { response: { 200: status, ...errorResponses } } },
    async () => {
      if (!app.receiver.store.db.isOpen) {
        throw receiverError('not_ready', 'database is closed', { retryAfterSeconds: 1 });
      }
      app.receiver.store.db.prepare('SELECT 1').get();
      return { status: 'ready' };
    },
  );
  app.get(
    '/metrics',
    { schema: { response: { 200: { type: 'string' } } } },
    async (_request, reply) => {
      reply.type('text/plain; version=0.0.4; charset=utf-8');
      return app.receiver.metrics.render();
    },
  );
}
