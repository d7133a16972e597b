import type { FastifyInstance } from 'fastify';
import { receiverError } from '../../errors.js';
import { shareResource, unshareResource } from '../../manage/resource-sharing.js';
import { ALERT_LEVELS } from '../../store/settings-store.js';
import { accessOf } from '../request-access.js';
import { withSchemaTypes } from '../schema-types.js';
import { isHttpUrl } from './http-url.js';
import { ownerOf } from './resource-view.js';
import { errorResponses, settingsSchema, uuidParamsSchema } from './schemas.js';

const memberParamsSchema = {
  type: 'object',
  required: ['uuid', 'username'],
  properties: { uuid: { type: 'string' }, username: { type: 'string' } },
} as const;

const collaboratorSchema = {
  type: 'object',
  required: ['username', 'role'],
  properties: {
    username: { type: 'string' },
    role: { type: 'string', enum: ['viewer', 'editor'] },
  },
} as const;

const _notFound = (what: string) => receiverError('not_found', `${what} not found`);

/** Sharing (owner only; a collaborator may leave) and each member's own settings (docs/receiver.md, "Permissions"). */
export async function memberRoutes(fastify: FastifyInstance) {
  const app = withSchemaTypes(fastify);
  const { store } = app.receiver;
  const { directory, settings } = store;

  app.get(
    '/api/resources/:uuid/collaborators',
    {
      schema: {
        summary: 'Collaborators of a resource (owner)',
        tags: ['collaborators'],
        params: uuidParamsSchema,
        response: {
          200: {
            type: 'object',
            required: ['collaborators'],
            properties: {
              owner: { type: 'string' },
              team: { type: 'string' },
              collaborators: { type: 'array', items: collaboratorSchema },
            },
          },
          ...errorResponses,
        },
      },
      onRequest: [app.admitLoad, app.apiAccess('collaborators.read'), app.rateLimit],
    },
    async (request) => {
      const { resource } = accessOf(request);
      return { ...ownerOf(resource), collaborators: directory.collaborators(resource.id) };
    },
  );

  app.put(
    '/api/resources/:uuid/collaborators/:username',
    {
      schema: {
        summary: 'Share a resource with an account, or change its role (owner)',
        tags: ['collaborators'],
        params: memberParamsSchema,
        body: {
          type: 'object',
          required: ['role'],
          additionalProperties: false,
          properties: { role: { type: 'string', enum: ['viewer', 'editor'] } },
        },
        response: { 200: collaboratorSchema, 201: collaboratorSchema, ...errorResponses },
      },
      onRequest: [app.admitLoad, app.apiAccess('collaborators.write'), app.rateLimit],
    },
    async (request, reply) => {
      const { username } = request.params;
      const { role } = request.body;
      const { added } = shareResource(store, accessOf(request).resource, username, role);
      return reply.code(added ? 201 : 200).send({ username, role });
    },
  );

  app.delete(
    '/api/resources/:uuid/collaborators/:username',
    {
      schema: {
        summary: 'Remove a collaborator (owner), or leave a shared resource (the collaborator)',
        tags: ['collaborators'],
        params: memberParamsSchema,
        response: { 204: { type: 'null' }, ...errorResponses },
      },
      onRequest: [
        app.admitLoad,
        app.apiAccess('collaborators.remove', 'collaborators.leave'),
        app.rateLimit,
      ],
    },
    async (request, reply) => {
      unshareResource(store, accessOf(request).resource, request.params.username);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/resources/:uuid/notification-settings',
    {
      schema: {
        summary: "The caller's own notification settings for a resource",
        tags: ['notifications'],
        params: uuidParamsSchema,
        response: { 200: settingsSchema, ...errorResponses },
      },
      onRequest: [app.admitLoad, app.apiAccess('settings.read'), app.rateLimit],
    },
    async (request) => {
      const { resource, principal } = accessOf(request);
      return settings.get(resource.id, principal.accountId);
    },
  );

  app.put(
    '/api/resources/:uuid/notification-settings',
    {
      schema: {
        summary: "Change the caller's own notification settings (omitted fields are kept)",
        tags: ['notifications'],
        params: uuidParamsSchema,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            enabled: { type: 'boolean' },
            health_changes: { type: 'boolean' },
            log_alert_level: { type: ['string', 'null'], enum: [...ALERT_LEVELS, null] },
            webhook_url: { type: ['string', 'null'], maxLength: 2048 },
          },
        },
        response: { 200: settingsSchema, ...errorResponses },
      },
      onRequest: [app.admitLoad, app.apiAccess('settings.write'), app.rateLimit],
    },
    async (request) => {
      const { resource, principal } = accessOf(request);
      const body = request.body;
      if (typeof body.webhook_url === 'string' && !isHttpUrl(body.webhook_url)) {
        throw receiverError('invalid_body', 'webhook_url must be an absolute http(s) URL');
      }
      // Keyed by the caller's own account: nobody can reach another member's settings.
      return store.transaction(() => {
        const next = { ...settings.get(resource.id, principal.accountId), ...body };
        settings.put(resource.id, principal.accountId, next, true);
        return next;
      });
    },
  );
}
