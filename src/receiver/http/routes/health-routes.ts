import type { FastifyInstance } from 'fastify';
import { receiverError } from '../../errors.js';
import type { HealthCheck } from '../../store/health-store.js';
import { accessOf } from '../request-access.js';
import { withSchemaTypes } from '../schema-types.js';
import { isHttpUrl } from './http-url.js';
import {
  errorResponses,
  healthCheckSchema,
  healthEventSchema,
  uuidParamsSchema,
} from './schemas.js';

const STATES = ['unknown', 'healthy', 'degraded', 'down'] as const;

/** `?limit=` of the history, 1–1000. */
const historyQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: { type: 'integer', minimum: 1, maximum: 1000 } },
} as const;

function checkView(check: HealthCheck) {
  return {
    url: check.url,
    interval_seconds: check.interval_seconds,
    timeout_millis: check.timeout_millis,
    expect_status: check.expect_status,
    consecutive_failures: check.consecutiveFailures,
    next_probe_at: new Date(check.nextDueMs).toISOString(),
    last_result: check.lastResult,
  };
}

/** Health state and its history, and the health check attached to a resource (docs/receiver.md, "Health"). */
export async function healthRoutes(fastify: FastifyInstance) {
  const app = withSchemaTypes(fastify);
  const { store, monitor, healthChecker, clock } = app.receiver;
  const healthRead = [app.admitLoad, app.apiAccess('health.read'), app.rateLimit];

  app.get(
    '/api/resources/:uuid/health',
    {
      schema: {
        summary: 'Health state, transition history (newest first) and health check',
        tags: ['health'],
        params: uuidParamsSchema,
        querystring: historyQuerySchema,
        response: {
          200: {
            type: 'object',
            required: ['state', 'changed_at', 'history', 'check'],
            properties: {
              state: { type: 'string', enum: STATES },
              changed_at: { type: ['string', 'null'] },
              history: { type: 'array', items: healthEventSchema },
              check: { ...healthCheckSchema, type: ['object', 'null'] },
            },
          },
          ...errorResponses,
        },
      },
      onRequest: healthRead,
    },
    async (request) => {
      const { resource } = accessOf(request);
      const { limit = 100 } = request.query;
      const check = store.health.check(resource.id);
      return {
        state: resource.health,
        changed_at: resource.healthChangedAt,
        history: store.health.history(resource.id, limit),
        check: check ? checkView(check) : null,
      };
    },
  );

  // The history on its own, for the console's history view.
  app.get(
    '/api/resources/:uuid/health/history',
    {
      schema: {
        summary: 'Health transitions of a resource, newest first',
        tags: ['health'],
        params: uuidParamsSchema,
        querystring: historyQuerySchema,
        response: {
          200: {
            type: 'object',
            required: ['events'],
            properties: {
              events: {
                type: 'array',
                items: {
                  ...healthEventSchema,
                  required: ['from', 'to', 'reason', 'source', 'actor', 'probe', 'at'],
                },
              },
            },
          },
          ...errorResponses,
        },
      },
      onRequest: healthRead,
    },
    async (request) => {
      const { limit = 50 } = request.query;
      return { events: store.health.history(accessOf(request).resource.id, limit) };
    },
  );

  app.put(
    '/api/resources/:uuid/health',
    {
      schema: {
        summary: 'Set the health state (owner, editor); a transition notifies the members',
        tags: ['health'],
        params: uuidParamsSchema,
        body: {
          type: 'object',
          required: ['state'],
          additionalProperties: false,
          properties: {
            state: { type: 'string', enum: STATES },
            reason: { type: 'string', maxLength: 1000 },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['state', 'changed', 'changed_at'],
            properties: {
              state: { type: 'string' },
              changed: { type: 'boolean' },
              changed_at: { type: ['string', 'null'] },
            },
          },
          ...errorResponses,
        },
      },
      onRequest: [app.admitLoad, app.apiAccess('health.write'), app.rateLimit],
    },
    async (request) => {
      const { resource, principal } = accessOf(request);
      const body = request.body;
      return monitor.setHealth(resource, {
        state: body.state,
        reason: body.reason ?? null,
        source: 'manual',
        actor: principal.username,
        probe: null,
      });
    },
  );

  app.put(
    '/api/resources/:uuid/health-check',
    {
      schema: {
        summary: 'Attach or replace the health check (owner, editor); the first probe runs now',
        tags: ['health'],
        params: uuidParamsSchema,
        body: {
          type: 'object',
          required: ['url', 'interval_seconds'],
          additionalProperties: false,
          properties: {
            url: { type: 'string', maxLength: 2048 },
            interval_seconds: { type: 'integer', minimum: 1, maximum: 86_400 },
            timeout_millis: { type: 'integer', minimum: 1, maximum: 60_000, default: 5000 },
            expect_status: { type: 'integer', minimum: 100, maximum: 599, default: 200 },
          },
        },
        response: { 200: healthCheckSchema, ...errorResponses },
      },
      onRequest: [app.admitLoad, app.apiAccess('healthcheck.write'), app.rateLimit],
    },
    async (request) => {
      const { resource } = accessOf(request);
      const config = request.body;
      if (!isHttpUrl(config.url))
        throw receiverError('invalid_body', 'url must be an absolute http(s) URL');
      const check = store.transaction(() => {
        store.health.putCheck(resource.id, config, clock());
        return store.health.check(resource.id) as HealthCheck;
      });
      healthChecker.kick();
      return checkView(check);
    },
  );

  app.delete(
    '/api/resources/:uuid/health-check',
    {
      schema: {
        summary: 'Remove the health check (owner, editor); the state stays as it is',
        tags: ['health'],
        params: uuidParamsSchema,
        response: { 204: { type: 'null' }, ...errorResponses },
      },
      onRequest: [app.admitLoad, app.apiAccess('healthcheck.write'), app.rateLimit],
    },
    async (request, reply) => {
      const { resource } = accessOf(request);
      if (!store.health.deleteCheck(resource.id)) {
        throw receiverError('not_found', 'no health check attached');
      }
      return reply.code(204).send();
    },
  );
}
