import { RESOURCE_KEY_PATTERN, USERNAME_PATTERN } from '../../../contract/identifiers.js';
import { errorResponseSchema } from '../errors.js';

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
const nullableString = { type: ['string', 'null'] } as const;
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
