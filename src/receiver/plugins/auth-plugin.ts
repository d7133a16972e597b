import bearerAuth from '@fastify/bearer-auth';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { type Action, authorize, type ResourceAction } from '../authorization.js';
import {
  invalidResource,
  notFound,
  ReceiverErrorCodes,
  ReceiverHttpError,
} from '../http-errors.js';
import { isResourceKey, isUsername, isUuid } from '../identifiers.js';
import type { Principal, Resource, Role } from '../store/directory-store.js';

export type AccessMode = 'read' | 'write';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook: authenticates `X-API-Key`, resolves `/u/{username}/resources/{uuid}`
     * (or `.../by-key/{key}`) and checks the key's role may `mode` it; sets `request.access`.
     */
    resourceAccess(mode: AccessMode): onRequestHookHandler;
    /**
     * onRequest hook of the management API (`/api/*`): authenticates `X-API-Key` and, for a
     * resource action, resolves `{uuid}` from the path and asks {@link authorize}; sets
     * `request.notes.principal` and, for resource actions, `request.access`.
     * `selfAction` replaces `action` when the path's `{username}` is the caller
     * (a collaborator removing themself).
     */
    apiAccess(action: Action, selfAction?: ResourceAction): onRequestHookHandler;
    /** onRequest hook: `Authorization: Bearer <admin token>`. */
    adminAccess: onRequestHookHandler;
  }
}

interface ResourceParams {
  username?: string;
  uuid?: string;
  key?: string;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Who may do what (DESIGN.md §1–§2): the key's account must be the owner or a collaborator
 * (any role reads, `editor` also writes); anything else is the same 404 as a resource that
 * does not exist, so keys cannot enumerate resources.
 */
async function authPlugin(app: FastifyInstance) {
  const { directory } = app.receiver.store;

  const authenticate = (request: FastifyRequest): Principal => {
    const key = header(request, 'x-api-key');
    if (!key) {
      throw new ReceiverHttpError(
        401,
        ReceiverErrorCodes.MISSING_API_KEY,
        'X-API-Key header is required',
      );
    }
    const principal = directory.authenticate(key);
    if (!principal) {
      throw new ReceiverHttpError(401, ReceiverErrorCodes.INVALID_API_KEY, 'API key is not valid');
    }
    request.notes.principal = principal;
    const claimed = header(request, 'x-user-username');
    if (claimed !== undefined && claimed !== principal.username) {
      throw new ReceiverHttpError(
        401,
        ReceiverErrorCodes.USERNAME_MISMATCH,
        'X-User-Username does not name the account of the API key',
      );
    }
    return principal;
  };

  const decide = (
    request: FastifyRequest,
    principal: Principal,
    resource: Resource | undefined,
    action: Action,
  ) => {
    const role: Role | undefined = resource && directory.roleOf(resource, principal.accountId);
    const decision = authorize(role, action);
    if (decision === 'not_found') {
      // Resource paths (logs, by-key, OTLP) answer the service's own code for them.
      throw action === 'logs.read' || action === 'logs.write' ? invalidResource() : notFound();
    }
    if (resource) request.notes.resource = resource.uuid;
    if (decision === 'forbidden') {
      throw new ReceiverHttpError(
        403,
        ReceiverErrorCodes.FORBIDDEN,
        action === 'logs.write'
          ? 'this API key may read this resource but not write to it'
          : `your role (${role}) on this resource does not allow ${action}`,
      );
    }
    if (resource && role) request.access = { principal, resource, role };
  };

  app.decorate('resourceAccess', (mode: AccessMode) => {
    return async function resourceAccess(request: FastifyRequest) {
      const principal = authenticate(request);
      const params = request.params as ResourceParams;
      let resource: Resource | undefined;
      if (isUsername(params.username)) {
        if (params.uuid !== undefined) {
          if (isUuid(params.uuid)) {
            const found = directory.resourceByUuid(params.uuid);
            // The path names the owner: a UUID owned by someone else is not found.
            if (found?.owner === params.username) resource = found;
          }
        } else if (isResourceKey(params.key)) {
          resource = directory.resourceByOwnerKey(params.username, params.key);
        }
      }
      decide(request, principal, resource, mode === 'write' ? 'logs.write' : 'logs.read');
    };
  });

  app.decorate('apiAccess', (action: Action, selfAction?: ResourceAction) => {
    return async function apiAccess(request: FastifyRequest) {
      const principal = authenticate(request);
      const params = request.params as ResourceParams;
      if (params.uuid === undefined) {
        decide(request, principal, undefined, action);
        return;
      }
      const resource = isUuid(params.uuid) ? directory.resourceByUuid(params.uuid) : undefined;
      const self = selfAction !== undefined && params.username === principal.username;
      decide(request, principal, resource, self ? selfAction : action);
    };
  });

  await app.register(bearerAuth, {
    keys: [app.receiver.adminToken],
    addHook: false,
    verifyErrorLogLevel: 'warn',
  });
  const verify = app.verifyBearerAuth;
  if (!verify) throw new Error('@fastify/bearer-auth did not decorate verifyBearerAuth');
  app.decorate(
    'adminAccess',
    function adminAccess(
      request: FastifyRequest,
      reply: FastifyReply,
      done: (error?: Error) => void,
    ) {
      verify(request, reply, (error) => {
        done(
          error &&
            new ReceiverHttpError(
              401,
              ReceiverErrorCodes.ADMIN_UNAUTHORIZED,
              'Authorization: Bearer <admin token> is required',
            ),
        );
      });
    },
  );
}

export default fp(authPlugin, {
  name: 'reslog-auth',
  fastify: '5.x',
  dependencies: ['reslog-storage', 'reslog-observability'],
});
