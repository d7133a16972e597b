import type { FastifyRequest } from 'fastify';
import type { ResourceAccess } from '../../receiver-context.js';
import type { Principal, Resource, Role } from '../../store/directory-store.js';
import { ALERT_LEVELS } from '../../store/settings-store.js';

/** JSON schemas and small helpers shared by the management API (`/api/*`). */

const nullableString = { type: ['string', 'null'] } as const;
const HEALTH_STATES = ['unknown', 'healthy', 'degraded', 'down'] as const;

export const uuidParamsSchema = {
  type: 'object',
  required: ['uuid'],
  properties: { uuid: { type: 'string' } },
} as const;

/**
 * A resource as the management API shows it: never the numeric ID; `owner` (an account) or
 * `team`, whichever owns it.
 */
export const apiResourceSchema = {
  type: 'object',
  required: ['uuid', 'key', 'name', 'role', 'health', 'created_at'],
  properties: {
    uuid: { type: 'string' },
    key: { type: 'string' },
    name: { type: 'string' },
    owner: { type: 'string' },
    team: { type: 'string' },
    role: { type: 'string', enum: ['owner', 'editor', 'viewer'] },
    health: { type: 'string', enum: HEALTH_STATES },
    created_at: { type: 'string' },
  },
} as const;

/** `{owner}` for an account's resource, `{team}` for a team's. */
export function ownerOf(resource: Resource): { owner: string } | { team: string } {
  return resource.team !== null ? { team: resource.team } : { owner: resource.owner ?? '' };
}

export function resourceView(resource: Resource, role: Role) {
  return {
    uuid: resource.uuid,
    key: resource.key,
    name: resource.name,
    ...ownerOf(resource),
    role,
    health: resource.health,
    created_at: resource.createdAt,
  };
}

export const settingsSchema = {
  type: 'object',
  required: ['enabled', 'health_changes', 'log_alert_level', 'webhook_url'],
  properties: {
    enabled: { type: 'boolean' },
    health_changes: { type: 'boolean' },
    log_alert_level: { type: ['string', 'null'], enum: [...ALERT_LEVELS, null] },
    webhook_url: nullableString,
  },
} as const;

const probeSchema = {
  type: ['object', 'null'],
  properties: {
    ok: { type: 'boolean' },
    status: { type: ['integer', 'null'] },
    error: nullableString,
    duration_ms: { type: 'integer' },
    at: { type: 'string' },
  },
} as const;

export const healthEventSchema = {
  type: 'object',
  properties: {
    from: { type: 'string' },
    to: { type: 'string' },
    reason: nullableString,
    source: { type: 'string', enum: ['manual', 'check', 'seed'] },
    actor: nullableString,
    probe: probeSchema,
    at: { type: 'string' },
  },
} as const;

export const healthCheckSchema = {
  type: 'object',
  properties: {
    url: { type: 'string' },
    interval_seconds: { type: 'integer' },
    timeout_millis: { type: 'integer' },
    expect_status: { type: 'integer' },
    consecutive_failures: { type: 'integer' },
    next_probe_at: { type: 'string' },
    last_result: probeSchema,
  },
} as const;

export const notificationSchema = {
  type: 'object',
  required: ['id', 'kind', 'resource', 'created_at', 'updated_at', 'read_at'],
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string', enum: ['health_change', 'log_alert'] },
    resource: {
      type: 'object',
      properties: {
        uuid: { type: 'string' },
        key: { type: 'string' },
        name: { type: 'string' },
        owner: { type: 'string' },
        team: { type: 'string' },
      },
    },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    read_at: nullableString,
    health: {
      type: ['object', 'null'],
      properties: {
        from: { type: 'string' },
        to: { type: 'string' },
        reason: nullableString,
        source: { type: 'string' },
        actor: nullableString,
        probe: probeSchema,
      },
    },
    log_alert: {
      type: ['object', 'null'],
      properties: {
        level: { type: 'string' },
        count: { type: 'integer' },
        first_message: { type: 'string' },
        first_level: { type: 'string' },
        first_ts: { type: 'string' },
        window_ends_at: nullableString,
      },
    },
    webhook: {
      type: ['object', 'null'],
      properties: {
        url: { type: 'string' },
        state: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
        attempts: { type: 'integer' },
        last_status: { type: ['integer', 'null'] },
        last_error: nullableString,
        delivered_at: nullableString,
        next_attempt_at: nullableString,
      },
    },
  },
} as const;

/** Webhook and health-check URLs: absolute http(s) only. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The caller's account (set by `apiAccess`). */
export function principalOf(request: FastifyRequest): Principal {
  const principal = request.notes.principal;
  if (!principal) throw new Error(`${request.routeOptions.url} ran without apiAccess`);
  return principal;
}

/** The caller, resource and role of a resource route (set by `apiAccess`). */
export function accessOf(request: FastifyRequest): ResourceAccess {
  const access = request.access;
  if (!access) throw new Error(`${request.routeOptions.url} ran without apiAccess`);
  return access;
}
