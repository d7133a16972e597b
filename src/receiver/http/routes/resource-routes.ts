import type { FastifyInstance } from 'fastify';
import { RESOURCE_KEY_PATTERN } from '../../../contract/identifiers.js';
import type { Resource } from '../../store/directory-store.js';
import { createResourceCatalog } from '../../store/resource-catalog.js';
import { receiverError } from '../errors.js';
import { accessOf, isAdmin, principalOf } from '../request-access.js';
import { healthHistoryRoute } from './health-history-route.js';
import { keyFromName } from './key-from-name.js';
import { resourceView } from './resource-view.js';
import { apiResourceSchema, errorResponses, uuidParamsSchema } from './schemas.js';

/** A resource as the admin token sees it: `role: "admin"`, reads only. */
const adminView = (resource: Resource) => ({ ...resourceView(resource, 'viewer'), role: 'admin' });

const conflict = (owner: string, key: string) =>
  receiverError('conflict', `${owner} already has a resource with key ${key}`);

const nameSchema = { type: 'string', minLength: 1, maxLength: 200 } as const;
const keySchema = { type: 'string', pattern: RESOURCE_KEY_PATTERN } as const;

/** `/api/resources`: create, list, read, rename/re-key and delete (docs/receiver.md, "Management API"). */
export async function resourceRoutes(app: FastifyInstance) {
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
      const principal = principalOf(request);
      const body = request.body as { name: string; key?: string };
      const key = body.key ?? keyFromName(body.name);
      const resource = store.transaction(() => {
        if (directory.resourceByOwnerKey(principal.username, key)) {
          throw conflict(principal.username, key);
        }
        return directory.createResource({ ownerId: principal.accountId, key, name: body.name });
      });
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
      const body = request.body as { name?: string; key?: string };
      const updated = store.transaction(() => {
        const key = body.key ?? resource.key;
        const clash = directory.resourceBySameOwnerKey(resource, key);
        if (clash && clash.id !== resource.id) {
          throw conflict(resource.team ?? resource.owner ?? '', key);
        }
        directory.updateResource(resource.id, body.name ?? resource.name, key);
        return directory.resourceById(resource.id) ?? resource;
      });
      return resourceView(updated, role);
    },
  );

  await app.register(healthHistoryRoute);

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
      return reply.code(204).send();
    },
  );
}
