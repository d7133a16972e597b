import { createHash, timingSafeEqual } from 'node:crypto';
import bearerAuth from '@fastify/bearer-auth';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { isResourceKey, isUsername, isUuid } from '../../../contract/identifiers.js';
import {
  type Action,
  ADMIN_READ_ACTIONS,
  authorize,
  type ResourceAction,
  roleFromTeam,
  type TeamAction,
  type TeamRole,
} from '../../access/authorization.js';
import { receiverError } from '../../errors.js';
import type { Principal, Resource, Role } from '../../store/directory-store.js';
import type { Team } from '../../store/team-store.js';
import { ADMIN_PRINCIPAL } from '../request-access.js';

export type AccessMode = 'read' | 'write';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook: authenticates `X-API-Key`, resolves `/u/{username}/resources/{uuid}` or
     * `/team/{team}/resources/{uuid}` (or `.../by-key/{key}`) and checks the key's role may
     * `mode` it; sets `request.access`.
     */
    resourceAccess(mode: AccessMode): onRequestHookHandler;
    /**
     * Runs {@link resourceAccess}'s checks again for a request that passed them: false once its
     * key is revoked, its role no longer allows `mode`, or the resource is gone. What a
     * long-lived follow stream asks (docs/receiver.md, "Follow").
     */
    stillHasAccess(request: FastifyRequest, mode: AccessMode): boolean;
    /**
     * onRequest hook of the management API (`/api/*`): authenticates `X-API-Key` and, for a
     * resource or team action, resolves `{uuid}` or `{team}` from the path and asks
     * {@link authorize}; sets `request.notes.principal` and, for resource actions,
     * `request.access`, for team actions `request.teamAccess`.
     * `selfAction` replaces `action` when the path's `{username}` is the caller
     * (a collaborator or team member removing themself).
     */
    apiAccess(action: Action, selfAction?: ResourceAction | TeamAction): onRequestHookHandler;
    /** onRequest hook: `Authorization: Bearer <admin token>`. */
    adminAccess: onRequestHookHandler;
  }
  interface FastifyRequest {
    /** The caller and team of a team route (set by `apiAccess`). */
    teamAccess: { principal: Principal; team: Team; role: TeamRole } | undefined;
  }
}

interface ResourceParams {
  username?: string;
  team?: string;
  uuid?: string;
  key?: string;
}

/** The one way the acting-user header may name the key's account: trimmed, any case. */
export function sameUsername(claimed: string, username: string): boolean {
  return claimed.trim().toLowerCase() === username;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Who may do what (docs/receiver.md, "Permissions"): the key's account must have a role on
 * the resource, as its owner, a collaborator or a member of the owning team (any role
 * reads, `editor` also writes); anything else is the same 404 as a resource that does not
 * exist, so keys cannot enumerate resources.
 */
async function authPlugin(app: FastifyInstance) {
  const { directory, teams } = app.receiver.store;
  app.decorateRequest('teamAccess', undefined);

  const digest = (text: string) => createHash('sha256').update(text).digest();
  const adminDigest = digest(app.receiver.adminToken);
  /**
   * A read with the admin token and no API key (docs/receiver.md, "Admin token reads"):
   * true for the right token, 401 `admin_unauthorized` for a wrong one, false when the
   * request carries a key or no bearer token (the API-key rules apply then).
   */
  const adminReads = (request: FastifyRequest, action: Action): boolean => {
    if (header(request, 'x-api-key') !== undefined || !ADMIN_READ_ACTIONS.has(action)) {
      return false;
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header(request, 'authorization') ?? '');
    if (!match) return false;
    // Digests have one length, so the comparison takes the same time for every token.
    if (!timingSafeEqual(digest(match[1] as string), adminDigest)) {
      throw receiverError('admin_unauthorized');
    }
    request.notes.principal = ADMIN_PRINCIPAL;
    return true;
  };

  /** The admin reads any resource there is; one that is not there is the usual 404. */
  const admitAdmin = (request: FastifyRequest, resource: Resource | undefined, action: Action) => {
    if (!resource) {
      throw action === 'logs.read' ? receiverError('invalid_resource') : receiverError('not_found');
    }
    request.notes.resource = resource.uuid;
    request.access = { principal: ADMIN_PRINCIPAL, resource, role: 'viewer' };
  };

  const authenticate = (request: FastifyRequest): Principal => {
    const key = header(request, 'x-api-key');
    if (!key) {
      throw receiverError('missing_api_key');
    }
    const principal = directory.authenticate(key);
    if (!principal) {
      throw receiverError('invalid_api_key');
    }
    request.notes.principal = principal;
    // The header names who is writing (on a shared resource the path names the owner); the
    // key proves it, so it must name the key's own account.
    const claimed = header(request, 'x-user-username');
    if (claimed !== undefined && !sameUsername(claimed, principal.username)) {
      throw receiverError('username_mismatch');
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
      throw action === 'logs.read' || action === 'logs.write'
        ? receiverError('invalid_resource')
        : receiverError('not_found');
    }
    if (resource) request.notes.resource = resource.uuid;
    if (decision === 'forbidden') {
      throw receiverError(
        'forbidden',
        action === 'logs.write'
          ? 'this API key may read this resource but not write to it'
          : `your role (${role}) on this resource does not allow ${action}`,
      );
    }
    if (resource && role) request.access = { principal, resource, role };
  };

  const checkResourceAccess = (request: FastifyRequest, mode: AccessMode) => {
    const action = mode === 'write' ? 'logs.write' : 'logs.read';
    const admin = adminReads(request, action);
    const principal = admin ? ADMIN_PRINCIPAL : authenticate(request);
    const params = request.params as ResourceParams;
    let resource: Resource | undefined;
    // The path names the owner, an account or a team: a UUID owned by anyone else is not
    // found, exactly like one that does not exist.
    if (params.uuid !== undefined) {
      const found = isUuid(params.uuid) ? directory.resourceByUuid(params.uuid) : undefined;
      if (
        found &&
        (params.team !== undefined
          ? found.team !== null && found.team === params.team
          : found.owner !== null && found.owner === params.username)
      ) {
        resource = found;
      }
    } else if (isResourceKey(params.key)) {
      if (params.team !== undefined) {
        if (isUsername(params.team))
          resource = directory.resourceByTeamKey(params.team, params.key);
      } else if (isUsername(params.username)) {
        resource = directory.resourceByOwnerKey(params.username, params.key);
      }
    }
    if (admin) admitAdmin(request, resource, action);
    else decide(request, principal, resource, action);
  };
  app.decorate('resourceAccess', (mode: AccessMode) => {
    return async function resourceAccess(request: FastifyRequest) {
      checkResourceAccess(request, mode);
    };
  });
  app.decorate('stillHasAccess', (request: FastifyRequest, mode: AccessMode) => {
    try {
      checkResourceAccess(request, mode);
      return true;
    } catch {
      return false;
    }
  });

  const decideTeam = (
    request: FastifyRequest,
    principal: Principal,
    name: string,
    action: Action,
  ) => {
    const team = isUsername(name) ? teams.byName(name) : undefined;
    const teamRole = team && teams.roleOf(team.id, principal.accountId);
    const decision = authorize(teamRole && roleFromTeam(teamRole), action);
    // Non-members cannot tell a team from one that does not exist.
    if (decision === 'not_found' || !team || !teamRole) {
      throw receiverError('not_found', 'team not found');
    }
    if (decision === 'forbidden') {
      throw receiverError(
        'forbidden',
        `your role (${teamRole}) on this team does not allow ${action}`,
      );
    }
    request.teamAccess = { principal, team, role: teamRole };
  };

  app.decorate('apiAccess', (action: Action, selfAction?: ResourceAction | TeamAction) => {
    return async function apiAccess(request: FastifyRequest) {
      const params = request.params as ResourceParams;
      if (params.team === undefined && adminReads(request, action)) {
        if (params.uuid !== undefined) {
          const found = isUuid(params.uuid) ? directory.resourceByUuid(params.uuid) : undefined;
          admitAdmin(request, found, action);
        }
        return;
      }
      const principal = authenticate(request);
      const self = selfAction !== undefined && params.username === principal.username;
      if (params.team !== undefined) {
        decideTeam(request, principal, params.team, self ? selfAction : action);
        return;
      }
      if (params.uuid === undefined) {
        decide(request, principal, undefined, action);
        return;
      }
      const resource = isUuid(params.uuid) ? directory.resourceByUuid(params.uuid) : undefined;
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
        done(error && receiverError('admin_unauthorized'));
      });
    },
  );
}

export default fp(authPlugin, {
  name: 'reslog-auth',
  fastify: '5.x',
  dependencies: ['reslog-storage', 'reslog-observability'],
});
