import type { FastifyInstance } from 'fastify';
import { RESOURCE_KEY_PATTERN } from '../../../contract/identifiers.js';
import { createAccountResource, updateResource } from '../../manage/resource-management.js';
import type { Resource } from '../../store/directory-store.js';
import { createResourceCatalog } from '../../store/resource-catalog.js';
import { accessOf, isAdmin, principalOf } from '../request-access.js';
import { withSchemaTypes } from '../schema-types.js';
import { keyFromName } from './key-from-name.js';
import { resourceView } from './resource-view.js';
import { apiResourceSchema, errorResponses, uuidParamsSchema } from './schemas.js';

/** A resource as the admin token sees it: `role: "admin"`, reads only. */
const adminView = (resource: Resource) => ({ ...resourceView(resource, 'viewer'), role: 'admin' });

const nameSchema = { type: 'string', minLength: 1, maxLength: 200 } as const;
const keySchema = { type: 'string', pattern: RESOURCE_KEY_PATTERN } as const;

/** `/api/resources`: create, list, read, rename/re-key and delete (docs/receiver.md, "Management API"). */
export async function resourceRoutes(fastify: FastifyInstance) {
  const app = withSchemaTypes(fastify);
  const { store } = app.receiver;
  const { directory } = store;
  const catalog = createResourceCatalog(store.db, directory);
  const hooks = (action: Parameters<FastifyInstance['apiAccess']>[0]) => [
    app.admitLoad,
    app.apiAccess(action),
    app.rateLimit,
  ];

  app.post(
    '/api/resources',
    {
      schema: {
        summary: 'Create a resource owned by the caller',
        tags: ['resources'],
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: nameSchema, key: keySchema },
        },
        response: { 201: apiResourceSchema, ...errorResponses },
      },
      onRequest: hooks('resources.create'),
    },
    async (request, reply) => {
      const { name, key = keyFromName(name) } = request.body;
      const resource = createAccountResource(store, principalOf(request), { key, name });
      request.notes.resource = resource.uuid;
      return reply.code(201).send(resourceView(resource, 'owner'));
    },
  );

  app.get(
    '/api/resources',
    {
      schema: {
        summary:
          'Resources the caller owns, collaborates on or sees through a team, with its role; every resource for the admin token',
        tags: ['resources'],
        response: {
          200: {
            type: 'object',
            required: ['resources'],
            properties: { resources: { type: 'array', items: apiResourceSchema } },
          },
          ...errorResponses,
        },
      },
      onRequest: hooks('resources.list'),
    },
    async (request) => {
      const principal = principalOf(request);
      // The admin token reads every resource (docs/receiver.md, "Admin token reads").
      if (isAdmin(principal)) {
        return { resources: catalog.all().map((resource) => adminView(resource)) };
      }
      return {
        resources: directory
          .resourcesOf(principal.accountId)
          .map((resource) => resourceView(resource, resource.role)),
      };
    },
  );

  app.get(
    '/api/resources/:uuid',
    {
      schema: {
        summary: 'One resource',
        tags: ['resources'],
        params: uuidParamsSchema,
        response: { 200: apiResourceSchema, ...errorResponses },
      },
      onRequest: hooks('resource.read'),
    },
    async (request) => {
      const { resource, role, principal } = accessOf(request);
      return isAdmin(principal) ? adminView(resource) : resourceView(resource, role);
    },
  );

  app.patch(
    '/api/resources/:uuid',
    {
      schema: {
        summary: 'Rename or re-key a resource (owner)',
        tags: ['resources'],
        params: uuidParamsSchema,
        body: {
          type: 'object',
          minProperties: 1,
          additionalProperties: false,
          properties: { name: nameSchema, key: keySchema },
        },
        response: { 200: apiResourceSchema, ...errorResponses },
      },
      onRequest: hooks('resource.update'),
    },
    async (request) => {
      const { resource, role } = accessOf(request);
      return resourceView(updateResource(store, resource, request.body), role);
    },
  );

  app.delete(
    '/api/resources/:uuid',
    {
      schema: {
        summary: 'Delete a resource with its logs, members, settings and notifications (owner)',
        tags: ['resources'],
        params: uuidParamsSchema,
        response: { 204: { type: 'null' }, ...errorResponses },
      },
      onRequest: hooks('resource.delete'),
    },
    async (request, reply) => {
      const { resource } = accessOf(request);
      store.transaction(() => directory.deleteResource(resource.id));
      app.receiver.events.removed(resource.id);
      return reply.code(204).send();
    },
  );
}
