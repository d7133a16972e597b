import type { FastifyInstance } from 'fastify';
import { accessOf } from '../request-access.js';
import { withSchemaTypes } from '../schema-types.js';
import { errorResponses, healthEventSchema, uuidParamsSchema } from './schemas.js';

/**
 * `GET /api/resources/{uuid}/health/history?limit=`: a resource's health transitions, newest
 * first, on their own for the console's history view (docs/receiver.md, "Health").
 */
export async function healthHistoryRoute(fastify: FastifyInstance) {
  const app = withSchemaTypes(fastify);
  const { store } = app.receiver;
  app.get(
    '/api/resources/:uuid/health/history',
    {
      schema: {
        summary: 'Health transitions of a resource, newest first',
        tags: ['health'],
        params: uuidParamsSchema,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { limit: { type: 'integer', minimum: 1, maximum: 1000 } },
        },
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
      onRequest: [app.admitLoad, app.apiAccess('health.read'), app.rateLimit],
    },
    async (request) => {
      const { resource } = accessOf(request);
      const { limit = 50 } = request.query;
      return { events: store.health.history(resource.id, limit) };
    },
  );
}
