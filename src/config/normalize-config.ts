import { diag } from '@opentelemetry/api';
import {
  isResourceKey,
  isUsername,
  normalizeUuid,
  RESOURCE_KEY_PATTERN,
  USERNAME_PATTERN,
} from '../contract/identifiers.js';
import { LEVELS } from '../contract/levels.js';
import { InvalidOptionError } from '../errors.js';
import { parseMinLevel } from '../exporter/severity.js';
import type { DropEvent } from '../exporter/stats-types.js';
import type {
  AttributeMatcher,
  AttributeValue,
  MinLevel,
  ResourceLogProcessorOptions,
  RouteRule,
} from './options.js';
import { type Owner, teamOwner, userOwner } from './owner.js';
import { parseResourceUrl } from './resource-url.js';

/** A route with its matchers compiled to predicates. */
export interface NormalizedRoute {
  readonly matchers: ReadonlyArray<
    readonly [attribute: string, test: (v: AttributeValue) => boolean]
  >;
  readonly uuid: string | undefined;
  readonly key: string | undefined;
  /** From the rule's `username` or `team`. */
  readonly owner: Owner | undefined;
}

/** Options after layering code > env > default, validated once. */
export interface NormalizedConfig {
  /** Without trailing slash; may carry a path prefix. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Owner of targets that name none themselves: the `username` option or the resource URL's. */
  readonly owner: Owner | undefined;
  readonly defaultResource:
    | { readonly uuid: string; readonly owner: Owner | undefined }
    | undefined;
  /** Acting user, sent as `x-user-username`. */
  readonly user: string | undefined;
  /** Least level rank sent (`LEVEL_RANKS`); 0 sends everything, Infinity nothing. */
  readonly minLevelRank: number;
  readonly routes: readonly NormalizedRoute[];
  readonly resourceKeys: ReadonlyMap<string, string>;
  readonly unmapped: 'drop' | 'error';
  readonly compression: 'auto' | 'gzip' | 'none';
  readonly timeoutMillis: number;
  readonly exportTimeoutMillis: number;
  readonly maxBatchBytes: number;
  readonly maxConcurrency: number;
  readonly maxBacklogBytes: number;
  readonly maxBacklogAgeMillis: number;
  readonly spoolDir: string | undefined;
  readonly maxSpoolBytes: number;
  readonly flushTimeoutMillis: number;
  readonly shutdownTimeoutMillis: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly onDrop: ((event: DropEvent) => void) | undefined;
  /** `ResourceLogProcessor` only: longest a record waits in its target's open batch. */
  readonly scheduledDelayMillis: number;
  /** `ResourceLogProcessor` only: most records in one batch. */
  readonly maxExportBatchSize: number;
}

export const DEFAULTS = {
  compression: 'auto',
  unmapped: 'drop',
  timeoutMillis: 10_000,
  exportTimeoutMillis: 25_000,
  maxBatchBytes: 1024 * 1024,
  maxConcurrency: 8,
  maxBacklogBytes: 64 * 1024 * 1024,
  maxBacklogAgeMillis: 6 * 60 * 60 * 1000,
  maxSpoolBytes: 1024 * 1024 * 1024,
  flushTimeoutMillis: 30_000,
  shutdownTimeoutMillis: 10_000,
  scheduledDelayMillis: 1000,
  maxExportBatchSize: 2048,
} as const;

/** The receiver takes at most this many records per request (docs/protocol.md). */
const MAX_RECORDS_PER_REQUEST = 10_000;

/** Header names the exporter sets itself; `headers` may not replace them. */
const RESERVED_HEADERS = new Set([
  'x-api-key',
  'content-type',
  'content-encoding',
  'content-length',
  'idempotency-key',
  'host',
  'transfer-encoding',
  'connection',
]);

const MIN_LEVELS = [...LEVELS, 'none'] as const;

/**
 * Layers code options over `RESLOG_*` environment variables over the service SDK's own
 * `ALSHIVAL_*` variables (so an app set up for that SDK needs no new configuration) over
 * defaults. A bad code option throws {@link InvalidOptionError}; a bad environment value warns
 * through `diag` and is ignored.
 */
export function normalizeConfig(
  options: ResourceLogProcessorOptions = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): NormalizedConfig {
  // Read first so that a key pasted into the wrong variable is redacted from the warnings.
  const apiKey =
    options.apiKey ??
    envValue(env, 'RESLOG_API_KEY', (v) => v) ??
    envValue(env, 'ALSHIVAL_API_KEY', (v) => v);
  const secret = typeof apiKey === 'string' ? apiKey : undefined;
  const resourceOption =
    options.resource ??
    envValue(env, 'RESLOG_RESOURCE', parseResourceEnv, secret) ??
    envValue(env, 'ALSHIVAL_RESOURCE', parseResourceEnv, secret) ??
    envValue(env, 'ALSHIVAL_RESOURCE_URL', parseResourceEnv, secret);
  const parsedResource = parseResourceOption(resourceOption, options.resource !== undefined);

  // A resource URL given in code is a code option too, so it outranks RESLOG_BASE_URL and
  // RESLOG_USERNAME; one from RESLOG_RESOURCE ranks below them.
  const codeUrl = options.resource !== undefined ? parsedResource : undefined;
  const envUrl = options.resource === undefined ? parsedResource : undefined;
  const baseUrl = normalizeBaseUrl(
    options.baseUrl ??
      codeUrl?.baseUrl ??
      envValue(env, 'RESLOG_BASE_URL', validBaseUrl, secret) ??
      envUrl?.baseUrl,
  );
  if (typeof apiKey !== 'string' || apiKey.length === 0) {
    throw new InvalidOptionError(
      'apiKey',
      'a non-empty string (option apiKey, env RESLOG_API_KEY or ALSHIVAL_API_KEY)',
      typeof apiKey === 'string' ? '""' : typeof apiKey,
    );
  }
  const envUsername = envValue(
    env,
    'RESLOG_USERNAME',
    (v) => (isUsername(v) ? v : undefined),
    secret,
  );
  const username = checkUsername('username', options.username);
  const owner =
    (username !== undefined ? userOwner(username) : undefined) ??
    codeUrl?.owner ??
    (envUsername !== undefined ? userOwner(envUsername) : undefined) ??
    envUrl?.owner;
  const minLevel =
    oneOf('minLevel', options.minLevel, MIN_LEVELS) ??
    envValue(env, 'RESLOG_MIN_LEVEL', parseMinLevelEnv, secret) ??
    envValue(env, 'ALSHIVAL_CLOUD_LEVEL', parseMinLevelEnv, secret);

  return {
    baseUrl,
    apiKey,
    owner,
    defaultResource: parsedResource && { uuid: parsedResource.uuid, owner: parsedResource.owner },
    user:
      checkActingUser(options.user) ??
      envValue(env, 'RESLOG_USER', actingUser, secret) ??
      envValue(env, 'ALSHIVAL_USERNAME', actingUser, secret),
    minLevelRank: minLevel === undefined ? 0 : (parseMinLevel(minLevel) as number),
    routes: normalizeRoutes(options.routes),
    resourceKeys: normalizeResourceKeys(options.resourceKeys),
    unmapped: oneOf('unmapped', options.unmapped, ['drop', 'error'] as const) ?? DEFAULTS.unmapped,
    compression:
      oneOf('compression', options.compression, COMPRESSIONS) ??
      envValue(
        env,
        'RESLOG_COMPRESSION',
        (v) => COMPRESSIONS.find((c) => c === v.toLowerCase()),
        secret,
      ) ??
      DEFAULTS.compression,
    timeoutMillis: positiveInt('timeoutMillis', options.timeoutMillis) ?? DEFAULTS.timeoutMillis,
    exportTimeoutMillis:
      positiveInt('exportTimeoutMillis', options.exportTimeoutMillis) ??
      DEFAULTS.exportTimeoutMillis,
    maxBatchBytes:
      positiveInt('maxBatchBytes', options.maxBatchBytes, 1024) ?? DEFAULTS.maxBatchBytes,
    maxConcurrency:
      positiveInt('maxConcurrency', options.maxConcurrency) ?? DEFAULTS.maxConcurrency,
    maxBacklogBytes:
      positiveInt('maxBacklogBytes', options.maxBacklogBytes, 1024) ??
      envValue(env, 'RESLOG_MAX_BACKLOG_BYTES', intAtLeast(1024), secret) ??
      DEFAULTS.maxBacklogBytes,
    maxBacklogAgeMillis:
      positiveInt('maxBacklogAgeMillis', options.maxBacklogAgeMillis) ??
      envValue(env, 'RESLOG_MAX_BACKLOG_AGE_MILLIS', intAtLeast(1), secret) ??
      DEFAULTS.maxBacklogAgeMillis,
    spoolDir:
      nonEmptyString('spoolDir', options.spoolDir) ??
      envValue(env, 'RESLOG_SPOOL_DIR', (v) => v, secret),
    maxSpoolBytes:
      positiveInt('maxSpoolBytes', options.maxSpoolBytes, 1024) ??
      envValue(env, 'RESLOG_MAX_SPOOL_BYTES', intAtLeast(1024), secret) ??
      DEFAULTS.maxSpoolBytes,
    flushTimeoutMillis:
      positiveInt('flushTimeoutMillis', options.flushTimeoutMillis) ?? DEFAULTS.flushTimeoutMillis,
    shutdownTimeoutMillis:
      positiveInt('shutdownTimeoutMillis', options.shutdownTimeoutMillis) ??
      DEFAULTS.shutdownTimeoutMillis,
    headers: normalizeHeaders(options.headers),
    onDrop: optionalFunction('onDrop', options.onDrop),
    scheduledDelayMillis:
      positiveInt('scheduledDelayMillis', options.scheduledDelayMillis) ??
      DEFAULTS.scheduledDelayMillis,
    maxExportBatchSize:
      atMost(
        'maxExportBatchSize',
        positiveInt('maxExportBatchSize', options.maxExportBatchSize),
        MAX_RECORDS_PER_REQUEST,
      ) ?? DEFAULTS.maxExportBatchSize,
  };
}

/**
 * Reads an env var; empty means unset; a value `parse` refuses warns and counts as unset.
 * The warning shows the value with `secret` (the API key) blanked out.
 */
function envValue<T>(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  parse: (value: string) => T | undefined,
  secret?: string,
): T | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const value = parse(raw);
  if (value === undefined) {
    const shown = name.endsWith('_API_KEY')
      ? '<redacted>'
      : JSON.stringify(secret ? raw.replaceAll(secret, '<redacted>') : raw);
    diag.warn(`reslog: ignoring invalid ${name}=${shown}`);
  }
  return value;
}

const COMPRESSIONS = ['auto', 'gzip', 'none'] as const;

function parseMinLevelEnv(value: string): MinLevel | undefined {
  const lower = value.toLowerCase();
  return MIN_LEVELS.find((level) => level === lower);
}

/** A username in any case: the service compares the acting user without regard to case. */
function actingUser(value: string): string | undefined {
  return isUsername(value.toLowerCase()) ? value : undefined;
}

function checkActingUser(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || actingUser(value) === undefined) {
    throw new InvalidOptionError('user', `a username (${USERNAME_PATTERN})`, value);
  }
  return value;
}

function parseResourceEnv(value: string): string | undefined {
  if (normalizeUuid(value)) return value;
  try {
    parseResourceUrl(value, 'RESLOG_RESOURCE');
    return value;
  } catch {
    return undefined;
  }
}

function parseResourceOption(
  value: unknown,
  fromCode: boolean,
): { uuid: string; owner?: Owner; baseUrl?: string } | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new InvalidOptionError('resource', 'a UUID or a resource URL', value);
  }
  const uuid = normalizeUuid(value);
  if (uuid) return { uuid };
  // The env value was checked already; a code value that is not a URL gets the URL message.
  const url = parseResourceUrl(value, fromCode ? 'resource' : 'RESLOG_RESOURCE');
  const owner = url.team !== undefined ? teamOwner(url.team) : userOwner(url.username as string);
  return { uuid: url.uuid, owner, baseUrl: url.baseUrl };
}

function validBaseUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

function normalizeBaseUrl(value: unknown): string {
  const expected = 'an http(s) URL (option baseUrl, env RESLOG_BASE_URL, or a resource URL)';
  if (typeof value !== 'string' || !validBaseUrl(value)) {
    throw new InvalidOptionError('baseUrl', expected, value);
  }
  const url = new URL(value);
  if (url.search || url.hash || url.username || url.password) {
    // Credentials or a query may hold a secret, so the message shows neither.
    const shown = `${url.protocol}//${url.username || url.password ? '<credentials>@' : ''}${url.host}${url.pathname}${url.search ? '?<query>' : ''}${url.hash ? '#<fragment>' : ''}`;
    throw new InvalidOptionError('baseUrl', 'a URL without query, fragment or credentials', shown);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function normalizeRoutes(value: unknown): NormalizedRoute[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new InvalidOptionError('routes', 'an array of rules', value);
  return value.map(normalizeRoute);
}

function normalizeRoute(rule: RouteRule, index: number): NormalizedRoute {
  const name = `routes[${index}]`;
  if (rule === null || typeof rule !== 'object') {
    throw new InvalidOptionError(name, 'an object { match, resource | key }', rule);
  }
  const match: unknown = rule.match;
  if (match === null || typeof match !== 'object' || Object.keys(match).length === 0) {
    throw new InvalidOptionError(`${name}.match`, 'an object with at least one attribute', match);
  }
  const matchers = Object.entries(match as Record<string, unknown>).map(
    ([attribute, matcher]) =>
      [attribute, compileMatcher(`${name}.match.${attribute}`, matcher)] as const,
  );
  if ((rule.resource === undefined) === (rule.key === undefined)) {
    throw new InvalidOptionError(name, 'exactly one of resource and key', rule);
  }
  const uuid = rule.resource === undefined ? undefined : normalizeUuid(rule.resource);
  if (rule.resource !== undefined && !uuid) {
    throw new InvalidOptionError(`${name}.resource`, 'a resource UUID', rule.resource);
  }
  if (rule.key !== undefined && !isResourceKey(rule.key)) {
    throw new InvalidOptionError(
      `${name}.key`,
      `a resource key (${RESOURCE_KEY_PATTERN})`,
      rule.key,
    );
  }
  if (rule.username !== undefined && rule.team !== undefined) {
    throw new InvalidOptionError(name, 'at most one of username and team', rule);
  }
  const username = checkUsername(`${name}.username`, rule.username);
  const team = checkUsername(`${name}.team`, rule.team, 'a team name');
  return {
    matchers,
    uuid,
    key: rule.key,
    owner:
      username !== undefined
        ? userOwner(username)
        : team !== undefined
          ? teamOwner(team)
          : undefined,
  };
}

function compileMatcher(name: string, matcher: unknown): (v: AttributeValue) => boolean {
  if (typeof matcher === 'string') return (v) => v === matcher;
  if (matcher instanceof RegExp) {
    // A global or sticky regex keeps lastIndex between calls and would match every other time.
    const re =
      matcher.global || matcher.sticky
        ? new RegExp(matcher.source, matcher.flags.replace(/[gy]/g, ''))
        : matcher;
    return (v) => typeof v === 'string' && re.test(v);
  }
  if (typeof matcher === 'function') {
    const fn = matcher as AttributeMatcher & ((v: AttributeValue) => boolean);
    return (v) => {
      try {
        return fn(v) === true;
      } catch {
        return false;
      }
    };
  }
  throw new InvalidOptionError(name, 'a string, a RegExp or a function', matcher);
}

function normalizeResourceKeys(value: unknown): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  if (value === undefined) return map;
  if (value === null || typeof value !== 'object') {
    throw new InvalidOptionError('resourceKeys', 'an object of resource key → UUID', value);
  }
  for (const [key, uuid] of Object.entries(value as Record<string, unknown>)) {
    if (!isResourceKey(key)) {
      throw new InvalidOptionError(
        'resourceKeys',
        `resource keys matching ${RESOURCE_KEY_PATTERN}`,
        key,
      );
    }
    const normalized = normalizeUuid(uuid);
    if (!normalized) throw new InvalidOptionError(`resourceKeys.${key}`, 'a resource UUID', uuid);
    map.set(key, normalized);
  }
  return map;
}

function normalizeHeaders(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object') {
    throw new InvalidOptionError('headers', 'an object of header name → string', value);
  }
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(value as Record<string, unknown>)) {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) {
      throw new InvalidOptionError(`headers.${name}`, 'a header reslog does not set itself', name);
    }
    if (typeof headerValue !== 'string') {
      throw new InvalidOptionError(`headers.${name}`, 'a string', headerValue);
    }
    headers[lower] = headerValue;
  }
  return headers;
}

function checkUsername(name: string, value: unknown, what = 'a username'): string | undefined {
  if (value === undefined) return undefined;
  if (!isUsername(value)) {
    throw new InvalidOptionError(name, `${what} (${USERNAME_PATTERN})`, value);
  }
  return value;
}

function oneOf<T extends string>(
  name: string,
  value: unknown,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) {
    throw new InvalidOptionError(name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  }
  return value as T;
}

function atMost(name: string, value: number | undefined, max: number): number | undefined {
  if (value !== undefined && value > max) {
    throw new InvalidOptionError(name, `an integer <= ${max}`, value);
  }
  return value;
}

function positiveInt(name: string, value: unknown, min = 1): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidOptionError(name, `an integer >= ${min}`, value);
  }
  return value;
}

function intAtLeast(min: number): (value: string) => number | undefined {
  return (value) => {
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    return Number.isSafeInteger(n) && n >= min ? n : undefined;
  };
}

function nonEmptyString(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidOptionError(name, 'a non-empty string', value);
  }
  return value;
}

function optionalFunction<F>(name: string, value: unknown): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new InvalidOptionError(name, 'a function', value);
  return value as F;
}
