import { RESOURCE_KEY_PATTERN, USERNAME_PATTERN } from '../../../contract/identifiers.js';
import { errorResponseSchema } from '../../errors.js';
import { ALERT_LEVELS } from '../../store/settings-store.js';

/* JSON schemas of the receiver's routes: params, answers and stored logs, then the management API's. */

const nullableString = { type: ['string', 'null'] } as const;

/** Path parameters of resource routes. Formats are checked by the auth hook, which answers
 * 404 for anything it cannot see, so that a malformed UUID looks like a missing one. */
export const resourceParamsSchema = {
  type: 'object',
  required: ['username', 'uuid'],
  properties: { username: { type: 'string' }, uuid: { type: 'string' } },
} as const;

export const byKeyParamsSchema = {
  type: 'object',
  required: ['username', 'key'],
  properties: { username: { type: 'string' }, key: { type: 'string' } },
} as const;

export const teamResourceParamsSchema = {
  type: 'object',
  required: ['team', 'uuid'],
  properties: { team: { type: 'string' }, uuid: { type: 'string' } },
} as const;

export const teamByKeyParamsSchema = {
  type: 'object',
  required: ['team', 'key'],
  properties: { team: { type: 'string' }, key: { type: 'string' } },
} as const;

/**
 * Where a resource's data plane lives: under its owning account or its owning team
 * (docs/receiver.md, "Data plane"). Each data-plane route is registered under both.
 */
export const RESOURCE_BASES = [
  { base: '/u/:username/resources', params: resourceParamsSchema, byKey: byKeyParamsSchema },
  {
    base: '/team/:team/resources',
    params: teamResourceParamsSchema,
    byKey: teamByKeyParamsSchema,
  },
] as const;

/** Error answers every route may give. */
export const errorResponses = {
  '4xx': errorResponseSchema,
  '5xx': errorResponseSchema,
} as const;

export const ingestAnswerSchema = {
  type: 'object',
  required: ['accepted', 'rejected', 'request_id', 'errors'],
  properties: {
    accepted: { type: 'integer' },
    rejected: { type: 'integer' },
    request_id: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'code', 'message'],
        properties: {
          index: { type: 'integer' },
          code: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
  },
} as const;

/** The by-key answer: `owner` (an account) or `team`, whichever owns the resource. */
export const resourceSummarySchema = {
  type: 'object',
  required: ['uuid', 'key', 'name', 'health'],
  properties: {
    uuid: { type: 'string' },
    key: { type: 'string' },
    name: { type: 'string' },
    owner: { type: 'string' },
    team: { type: 'string' },
    health: { type: 'string' },
  },
} as const;

/** Any JSON value: free-form fields are passed through unchanged. */
const anyJson = {} as const;
const freeObject = { type: 'object', additionalProperties: true } as const;

export const storedLogSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    ts: { type: 'string' },
    level: { type: 'string' },
    severity_number: { type: ['integer', 'null'] },
    message: { type: 'string' },
    logger: nullableString,
    attributes: freeObject,
    extra: anyJson,
    body: anyJson,
    trace_id: nullableString,
    span_id: nullableString,
    observed_ts: nullableString,
    event_name: nullableString,
    record_id: nullableString,
    unknown_fields: freeObject,
    resource: freeObject,
    sdk: nullableString,
    sdk_version: nullableString,
    received_at: { type: 'string' },
    request_id: { type: 'string' },
    user: nullableString,
  },
} as const;

export const patterns = { username: USERNAME_PATTERN, resourceKey: RESOURCE_KEY_PATTERN };

// The management API (`/api/*`).

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
    // `admin`: the admin token, which reads every resource (docs/receiver.md, "Admin token reads").
    role: { type: 'string', enum: ['owner', 'editor', 'viewer', 'admin'] },
    health: { type: 'string', enum: HEALTH_STATES },
    created_at: { type: 'string' },
  },
} as const;

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
    // A health transition as the history shows it (without `at`: the notification's own times).
    health: { ...healthEventSchema, type: ['object', 'null'] },
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
