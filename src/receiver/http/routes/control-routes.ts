import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../../contract/identifiers.js';
import type { FaultRuleInput } from '../../control/fault-rules.js';
import { receiverError } from '../errors.js';
import { errorResponses } from './schemas.js';

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

/** Control plane for tests: faults, the request journal and the log wait (admin token). */
export async function controlRoutes(app: FastifyInstance) {
  const { faults, journal, store, events } = app.receiver;
  app.addHook('onRequest', app.adminAccess);

  app.post(
    '/_receiver/faults',
    { schema: { body: faultRuleSchema, response: { 201: storedRuleSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(faults.add(request.body as FaultRuleInput)),
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
        params: { type: 'object', properties: { id: { type: 'string' } } },
        response: { 204: { type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!faults.remove((request.params as { id: string }).id)) {
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
      const query = request.query as { resource?: string; limit?: number };
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
      const query = request.query as { resource: string; min: number; timeout: number };
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
