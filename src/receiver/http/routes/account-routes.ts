import type { FastifyInstance } from 'fastify';
import { receiverError } from '../../errors.js';
import { principalOf } from '../request-access.js';
import { withSchemaTypes } from '../schema-types.js';
import { errorResponses, notificationSchema } from './schemas.js';

const encodeCursor = (id: number) => Buffer.from(`n:${id}`).toString('base64url');

function decodeCursor(cursor: string): number {
  const match = /^n:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw receiverError('invalid_request', 'cursor is not valid');
  return Number(match[1]);
}

/** The caller's account and inbox (docs/receiver.md, "Management API"). */
export async function accountRoutes(fastify: FastifyInstance) {
  const app = withSchemaTypes(fastify);
  const { store } = app.receiver;

  app.get(
    '/api/me',
    {
      schema: {
        summary: "The caller's account, with the secret that signs its webhooks",
        tags: ['account'],
        response: {
          200: {
            type: 'object',
            required: ['username', 'created_at', 'webhook_secret'],
            properties: {
              username: { type: 'string' },
              created_at: { type: 'string' },
              webhook_secret: { type: 'string' },
            },
          },
          ...errorResponses,
        },
      },
      onRequest: [app.admitLoad, app.apiAccess('account.read'), app.rateLimit],
    },
    async (request) => {
      const principal = principalOf(request);
      const account = store.directory.accountById(principal.accountId);
      if (!account) throw new Error('authenticated account vanished');
      const secret = store.transaction(() => store.directory.webhookSecret(account.id));
      return { username: account.username, created_at: account.createdAt, webhook_secret: secret };
    },
  );

  app.get(
    '/api/notifications',
    {
      schema: {
        summary: "The caller's notifications, newest first",
        tags: ['notifications'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            resource: { type: 'string', maxLength: 64 },
            unread: { type: 'boolean' },
            cursor: { type: 'string', maxLength: 100 },
            limit: { type: 'integer', minimum: 1, maximum: 200 },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['notifications', 'next_cursor'],
            properties: {
              notifications: { type: 'array', items: notificationSchema },
              next_cursor: { type: ['string', 'null'] },
            },
          },
          ...errorResponses,
        },
      },
      onRequest: [app.admitLoad, app.apiAccess('notifications.read'), app.rateLimit],
    },
    async (request) => {
      const principal = principalOf(request);
      const query = request.query;
      const limit = query.limit ?? 50;
      const page = store.notifications.list(principal.accountId, {
        ...(query.resource === undefined ? {} : { resourceUuid: query.resource }),
        ...(query.unread === undefined ? {} : { unread: query.unread }),
        ...(query.cursor === undefined ? {} : { beforeId: decodeCursor(query.cursor) }),
        limit: limit + 1,
      });
      const more = page.length > limit;
      const notifications = more ? page.slice(0, limit) : page;
      const last = notifications.at(-1);
      return { notifications, next_cursor: more && last ? encodeCursor(last.id) : null };
    },
  );

  app.post(
    '/api/notifications/:id/read',
    {
      schema: {
        summary: 'Mark one of the caller’s notifications read',
        tags: ['notifications'],
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer', minimum: 1 } },
        },
        response: { 200: notificationSchema, ...errorResponses },
      },
      onRequest: [app.admitLoad, app.apiAccess('notifications.update'), app.rateLimit],
    },
    async (request) => {
      const principal = principalOf(request);
      const { id } = request.params;
      const found = store.notifications.get(id);
      // Someone else's notification is not found, exactly like one that does not exist.
      if (!found || found.accountId !== principal.accountId) {
        throw receiverError('not_found', 'notification not found');
      }
      store.notifications.markRead(principal.accountId, id);
      const { accountId: _account, ...view } = store.notifications.get(id) ?? found;
      return view;
    },
  );
}
