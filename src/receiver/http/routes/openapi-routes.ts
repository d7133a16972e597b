import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Collects every route's schemas into an OpenAPI 3.1 document. Registered before the routes
 * (it listens to `onRoute`), so the document covers the whole receiver API.
 */
async function openApiPlugin(app: FastifyInstance, options: { version: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'reslog receiver',
        description:
          'Reference resource-scoped logging service: ingest, read-back, management API, ' +
          'monitor notifications and control plane (docs/receiver.md).',
        version: options.version,
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          adminToken: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ apiKey: [] }],
    },
  });
}

export const openApi = fp(openApiPlugin, { name: 'reslog-openapi', fastify: '5.x' });

/** `GET /_receiver/openapi.json`: the document, no authentication (it holds no secrets). */
export async function openApiRoute(app: FastifyInstance) {
  app.get('/_receiver/openapi.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json').send(app.swagger()),
  );
}
