import type { FastifyServerOptions } from 'fastify';
import { ReceiverOptionError } from './errors.js';
import type { Seed } from './seed.js';

/** Limits against oversized, deep, fast or slow clients (docs/receiver.md, "Limits"). */
export interface ReceiverLimits {
  /**
   * Largest request body in bytes, checked on the wire and again after gzip decompression
   * (decompression stops at this size, so a gzip bomb never inflates further).
   * @default 5242880 (5 MiB)
   */
  maxBodyBytes: number;
  /**
   * Most log records in one request (more → 413 `too_many_records`).
   * @default 10000
   */
  maxRecordsPerRequest: number;
  /**
   * Largest `message` of one record in UTF-8 bytes (more → that record is rejected). By
   * default as large as the body may be: the service's SDKs send whatever the caller logs.
   * @default maxBodyBytes (5 MiB)
   */
  maxMessageBytes: number;
  /**
   * Largest JSON size in bytes of one record's `attributes`, and separately of its `extra`,
   * `body` and unknown fields (more → that record is rejected).
   * @default maxBodyBytes (5 MiB)
   */
  maxAttributesBytes: number;
  /**
   * Deepest JSON nesting of one record, counting the record itself as 1 (deeper → that record
   * is rejected, `nesting_too_deep`), and of the envelope outside `logs` and of any other
   * JSON body, counting the body as 1 (deeper → 400). At most 1024.
   * @default 256
   */
  maxDepth: number;
  /**
   * Requests per second each API key may make (token bucket refill rate); 0 turns the
   * per-key rate limit off. Off by default: the service's SDKs send one request per record
   * and never retry, so a 429 would lose logs.
   * @default 0 (off)
   */
  rateLimitPerSecond: number;
  /**
   * Requests an API key may make in a burst (token bucket size), when `rateLimitPerSecond`
   * is set.
   * @default 200
   */
  rateLimitBurst: number;
  /**
   * Requests with an API key processed at once (body read, parsed, committed); more wait in
   * a queue, in arrival order, without their bodies being read.
   * @default 64
   */
  maxInFlight: number;
  /**
   * Requests that may wait for one of the `maxInFlight` slots; more → 503 `overloaded` with
   * `Retry-After`. 0: no queue (503 as soon as all slots are busy).
   * @default 10000
   */
  maxQueuedRequests: number;
  /**
   * Time a client has to send all request headers (at most 10 000).
   * @default 10000
   */
  headersTimeoutMillis: number;
  /**
   * Time a client has to send the whole request (at most 30 000).
   * @default 30000
   */
  requestTimeoutMillis: number;
  /**
   * Bytes a follow stream (`?follow=true`) may hold for a client that has not taken them;
   * while it is full, no more records are read for that client, and a client that leaves it
   * full for a whole `followHeartbeatMillis` is cut off (docs/receiver.md, "Follow").
   * @default 1048576 (1 MiB)
   */
  maxFollowBufferBytes: number;
  /**
   * How often an idle follow stream sends a heartbeat (an empty NDJSON line, an SSE comment)
   * so that proxies keep it open; also how long a full buffer may stay full.
   * @default 15000
   */
  followHeartbeatMillis: number;
}

export const DEFAULT_LIMITS: Readonly<ReceiverLimits> = Object.freeze({
  maxBodyBytes: 5 * 1024 * 1024,
  maxRecordsPerRequest: 10_000,
  maxMessageBytes: 5 * 1024 * 1024,
  maxAttributesBytes: 5 * 1024 * 1024,
  maxDepth: 256,
  rateLimitPerSecond: 0,
  rateLimitBurst: 200,
  maxInFlight: 64,
  maxQueuedRequests: 10_000,
  headersTimeoutMillis: 10_000,
  requestTimeoutMillis: 30_000,
  maxFollowBufferBytes: 1024 * 1024,
  followHeartbeatMillis: 15_000,
});

const CEILINGS: Partial<Record<keyof ReceiverLimits, number>> = {
  maxDepth: 1024,
  headersTimeoutMillis: 10_000,
  requestTimeoutMillis: 30_000,
};

/** Monitor notifications (docs/receiver.md, "Notifications"). */
export interface NotificationOptions {
  /**
   * Log alerts of one member and resource within this window are coalesced into one
   * notification (count + first message); its webhook goes out when the window closes.
   * @default 60000
   */
  coalesceWindowMillis: number;
  /**
   * Waits before webhook attempts 2, 3, …; after the last one fails the delivery is `failed`.
   * @default [1000, 5000, 30000, 120000, 600000]
   */
  webhookRetryDelaysMillis: readonly number[];
  /**
   * Time one webhook attempt may take.
   * @default 5000
   */
  webhookTimeoutMillis: number;
  /**
   * Longest sleep of the delivery worker between looks at the queue; due times come from
   * `clock`, so tests with a manual clock set this low.
   * @default 1000
   */
  pollMillis: number;
}

/** Scheduled health checks (docs/receiver.md, "Health"). */
export interface HealthCheckOptions {
  /**
   * Consecutive failed probes that make a resource `down` (one failure makes it `degraded`).
   * @default 3
   */
  failuresUntilDown: number;
  /**
   * Longest sleep of the scheduler between looks for due checks (due times come from `clock`).
   * @default 1000
   */
  pollMillis: number;
}

export const DEFAULT_NOTIFICATION_OPTIONS: Readonly<NotificationOptions> = Object.freeze({
  coalesceWindowMillis: 60_000,
  webhookRetryDelaysMillis: Object.freeze([1000, 5000, 30_000, 120_000, 600_000]),
  webhookTimeoutMillis: 5000,
  pollMillis: 1000,
});

export const DEFAULT_HEALTH_CHECK_OPTIONS: Readonly<HealthCheckOptions> = Object.freeze({
  failuresUntilDown: 3,
  pollMillis: 1000,
});

function positive(value: unknown, name: string, zeroOk = false): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < (zeroOk ? 0 : 1)) {
    throw new ReceiverOptionError(
      `receiver option "${name}" must be a ${zeroOk ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Notification options with defaults applied; throws on invalid values. */
export function normalizeNotificationOptions(
  input: Partial<NotificationOptions> = {},
): NotificationOptions {
  const d = DEFAULT_NOTIFICATION_OPTIONS;
  const delays = input.webhookRetryDelaysMillis ?? d.webhookRetryDelaysMillis;
  if (!Array.isArray(delays)) {
    throw new ReceiverOptionError(
      'receiver option "notifications.webhookRetryDelaysMillis" must be an array',
    );
  }
  return {
    coalesceWindowMillis: positive(
      input.coalesceWindowMillis ?? d.coalesceWindowMillis,
      'notifications.coalesceWindowMillis',
    ),
    webhookRetryDelaysMillis: delays.map((delay, i) =>
      positive(delay, `notifications.webhookRetryDelaysMillis[${i}]`, true),
    ),
    webhookTimeoutMillis: positive(
      input.webhookTimeoutMillis ?? d.webhookTimeoutMillis,
      'notifications.webhookTimeoutMillis',
    ),
    pollMillis: positive(input.pollMillis ?? d.pollMillis, 'notifications.pollMillis'),
  };
}

/** Health-check options with defaults applied; throws on invalid values. */
export function normalizeHealthCheckOptions(
  input: Partial<HealthCheckOptions> = {},
): HealthCheckOptions {
  const d = DEFAULT_HEALTH_CHECK_OPTIONS;
  return {
    failuresUntilDown: positive(
      input.failuresUntilDown ?? d.failuresUntilDown,
      'healthChecks.failuresUntilDown',
    ),
    pollMillis: positive(input.pollMillis ?? d.pollMillis, 'healthChecks.pollMillis'),
  };
}

/** Options of {@link buildReceiver}. */
export interface ReceiverOptions {
  /**
   * SQLite database: a file path, or `:memory:`.
   * @default ':memory:'
   */
  db?: string;
  /**
   * Accounts, keys, resources and members to create at start (already validated, e.g. by
   * `loadSeedFile`, or any object, which is validated here).
   * @default undefined
   */
  seed?: Seed | unknown;
  /**
   * Bearer token of the control plane (`/_receiver/*` except health, `/internal/*`).
   * @default a random token, readable as `app.receiver.adminToken`
   */
  adminToken?: string;
  /**
   * Millisecond clock for receive times, rate limits and idempotency expiry.
   * @default Date.now
   */
  clock?: () => number;
  /**
   * Limits; omitted entries take their defaults.
   * @default DEFAULT_LIMITS
   */
  limits?: Partial<ReceiverLimits>;
  /**
   * Fastify's pino logger options (`true`, `false` or options). API keys and the admin token
   * are always redacted.
   * @default false
   */
  logger?: boolean | Exclude<FastifyServerOptions['logger'], undefined>;
  /**
   * How many recent requests the request journal keeps.
   * @default 1000
   */
  journalSize?: number;
  /**
   * Monitor notifications: coalescing window, webhook retries and timeouts.
   * @default DEFAULT_NOTIFICATION_OPTIONS
   */
  notifications?: Partial<NotificationOptions>;
  /**
   * Scheduled health checks: failure threshold and scheduler poll.
   * @default DEFAULT_HEALTH_CHECK_OPTIONS
   */
  healthChecks?: Partial<HealthCheckOptions>;
  /**
   * Where the service lives, as on hosts that serve it under a path (`/DevTools`): the data
   * plane (`/u/…`, `/team/…`) and the management API (`/api/…`) are served only under it;
   * the control plane (`/_receiver/…`, `/internal/…`) and `/metrics` stay at the root.
   * @default '' (no prefix)
   */
  pathPrefix?: string;
  /**
   * Serve the web console at `/` (docs/receiver.md, "Web console"), always at the root; its
   * API calls go under `pathPrefix`. `false`: `/` is a 404 like any unknown path.
   * @default true
   */
  console?: boolean;
}

/** Limits where 0 means "off" (no rate limit, no queue). */
const ZERO_ALLOWED = new Set<keyof ReceiverLimits>(['rateLimitPerSecond', 'maxQueuedRequests']);

/** Limits with defaults applied; throws on values that are not positive integers. */
export function normalizeLimits(limits: Partial<ReceiverLimits> = {}): ReceiverLimits {
  // Per-record sizes follow the body limit unless set: a record as large as the body is fine.
  const maxBodyBytes = limits.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  const result = {
    ...DEFAULT_LIMITS,
    maxMessageBytes: maxBodyBytes,
    maxAttributesBytes: maxBodyBytes,
  };
  for (const [name, value] of Object.entries(limits) as [keyof ReceiverLimits, unknown][]) {
    if (value === undefined) continue;
    if (!(name in DEFAULT_LIMITS))
      throw new ReceiverOptionError(`unknown receiver limit "${name}"`);
    const lowest = ZERO_ALLOWED.has(name) ? 0 : 1;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < lowest) {
      throw new ReceiverOptionError(
        `receiver limit "${name}" must be a ${lowest === 0 ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(value)}`,
      );
    }
    const ceiling = CEILINGS[name];
    if (ceiling !== undefined && value > ceiling) {
      throw new ReceiverOptionError(
        `receiver limit "${name}" must be at most ${ceiling}, got ${value}`,
      );
    }
    result[name] = value;
  }
  return result;
}
