import type { DropEvent } from '../exporter/stats-types.js';

/** A resource attribute value as OpenTelemetry carries it. */
export type AttributeValue = string | number | boolean | ReadonlyArray<unknown> | null | undefined;

/** How one resource attribute must look for a route to match. */
export type AttributeMatcher = string | RegExp | ((value: AttributeValue) => boolean);

/**
 * A routing rule. It matches when every entry of `match` holds for the record's resource
 * attributes; the first matching rule wins. It names its target either by `resource` (a UUID)
 * or by `key` (a resource key, turned into a UUID through `resourceKeys` or the receiver).
 */
export interface RouteRule {
  /** Resource attribute name → expected value, pattern or predicate. All must hold. */
  match: Readonly<Record<string, AttributeMatcher>>;
  /** Target resource UUID. Exactly one of `resource` and `key` is required. */
  resource?: string;
  /** Target resource key (slug such as `checkout-api`). */
  key?: string;
  /**
   * Owner username of the target resource. At most one of `username` and `team`.
   * @default the `reslog.username` attribute, else the `username` option
   */
  username?: string;
  /**
   * Owner team of the target resource (`/team/<team>/resources/<uuid>/`), in place of
   * `username`. A `reslog.username` attribute still names an account owner instead.
   * @default undefined
   */
  team?: string;
}

/** A minimum level: records below it are not sent (`none`: nothing is sent). */
export type MinLevel = 'debug' | 'info' | 'warning' | 'error' | 'alert' | 'critical' | 'none';

/** Options of {@link ResourceLogExporter}. Code options win over environment variables. */
export interface ResourceLogExporterOptions {
  /**
   * Base URL of the logging service; may carry a path prefix (`https://host/logs`).
   * @default env `RESLOG_BASE_URL`, else the origin and prefix of a `resource` URL
   */
  baseUrl?: string;
  /**
   * API key, sent as `X-API-Key`. Never logged, never part of an error.
   * @default env `RESLOG_API_KEY`, else `ALSHIVAL_API_KEY`
   */
  apiKey?: string;
  /**
   * Default owner username used in the ingest path.
   * @default env `RESLOG_USERNAME`, else the owner in a `resource` URL
   */
  username?: string;
  /**
   * Default target: a resource UUID, or a full resource URL such as
   * `https://logs.example.com/u/alice/resources/<uuid>/` or, for a team's resource,
   * `https://logs.example.com/team/devops/resources/<uuid>/` (which also gives base URL and
   * owner).
   * @default env `RESLOG_RESOURCE`, else `ALSHIVAL_RESOURCE`, else `ALSHIVAL_RESOURCE_URL`
   */
  resource?: string;
  /**
   * The acting user, sent as `x-user-username` on every request: who is writing when the key
   * belongs to a collaborator of someone else's (or a team's) resource.
   * @default env `RESLOG_USER`, else `ALSHIVAL_USERNAME`, else not sent
   */
  user?: string;
  /**
   * Records below this level are not sent; they are counted as `filtered`, not as dropped.
   * Levels rank debug < info < warning < error < alert < critical.
   * @default env `RESLOG_MIN_LEVEL`, else `ALSHIVAL_CLOUD_LEVEL`, else 'debug' (all are sent)
   */
  minLevel?: MinLevel;
  /**
   * Ordered routing rules, tried after the `reslog.resource.*` attributes.
   * @default []
   */
  routes?: readonly RouteRule[];
  /**
   * Static map of resource key → UUID. Keys not in the map are looked up through
   * `GET {baseUrl}/u/{username}/resources/by-key/{key}` and cached.
   * @default {}
   */
  resourceKeys?: Readonly<Record<string, string>>;
  /**
   * What to do with a record no rule maps to a resource: `'drop'` counts it and the export
   * still succeeds; `'error'` counts it and fails the export.
   * @default 'drop'
   */
  unmapped?: 'drop' | 'error';
  /**
   * Request body compression. `'auto'` gzips and, when a target answers a gzipped request with
   * 415 or 400, sends the same batch again uncompressed (same `Idempotency-Key`) and sends that
   * target uncompressed bodies for the next hour. `'gzip'` and `'none'` force one encoding.
   * @default env `RESLOG_COMPRESSION`, else 'auto'
   */
  compression?: 'auto' | 'gzip' | 'none';
  /**
   * Time limit of one HTTP attempt, in milliseconds.
   * @default 10000
   */
  timeoutMillis?: number;
  /**
   * Time budget of the work `export()` does before it returns: resource-key lookups through
   * the service. Sending happens afterwards, from the backlog, with no such deadline.
   * @default 25000
   */
  exportTimeoutMillis?: number;
  /**
   * Most bytes of queued request bodies (gzipped, when they are sent gzipped) held in memory
   * over all targets. Past it the oldest batches are dropped (`backlog_full`), or, with a
   * spool, their bodies stay only on disk.
   * @default env `RESLOG_MAX_BACKLOG_BYTES`, else 67108864 (64 MiB)
   */
  maxBacklogBytes?: number;
  /**
   * Oldest a queued batch may get before it is dropped (`expired`). Keep it below the
   * service's idempotency window (24 h), so that a batch replayed late is still recognised.
   * @default env `RESLOG_MAX_BACKLOG_AGE_MILLIS`, else 21600000 (6 h)
   */
  maxBacklogAgeMillis?: number;
  /**
   * A directory where queued batches are also written, so that they survive a crash or a
   * restart of the app; the next exporter over the same directory sends them.
   * @default env `RESLOG_SPOOL_DIR`, else no spool
   */
  spoolDir?: string;
  /**
   * Most bytes the spool keeps on disk; past it the oldest batches are dropped (`backlog_full`).
   * @default env `RESLOG_MAX_SPOOL_BYTES`, else 1073741824 (1 GiB)
   */
  maxSpoolBytes?: number;
  /**
   * How long `forceFlush()` waits for every backlog to empty before it resolves anyway.
   * @default 30000
   */
  flushTimeoutMillis?: number;
  /**
   * How long `shutdown()` keeps sending what is queued. What is left then is counted as
   * `shutdown`, or stays in the spool for the next start.
   * @default 10000
   */
  shutdownTimeoutMillis?: number;
  /**
   * Largest request body, in bytes of JSON before compression. Larger exports are split.
   * @default 1048576
   */
  maxBatchBytes?: number;
  /**
   * Most requests in flight at once over all targets. Each target has at most one in flight,
   * so that a resource's logs arrive in order.
   * @default 8
   */
  maxConcurrency?: number;
  /**
   * Extra request headers. They cannot replace `X-API-Key`, `Content-Type`,
   * `Content-Encoding` or `Idempotency-Key`.
   * @default {}
   */
  headers?: Readonly<Record<string, string>>;
  /**
   * Called whenever records are dropped, with the reason. Exceptions it throws are ignored.
   * @default undefined
   */
  onDrop?: (event: DropEvent) => void;
}

/**
 * Options of `ResourceLogProcessor`: every exporter option, plus when its open batches close.
 * The processor serializes each record as it is emitted into its target's open batch; a batch
 * closes when it holds `maxExportBatchSize` records, would exceed `maxBatchBytes`, or has been
 * open `scheduledDelayMillis` (docs/exporter.md, "The processor").
 */
export interface ResourceLogProcessorOptions extends ResourceLogExporterOptions {
  /**
   * Longest a record waits in its target's open batch before the batch is queued for sending
   * (`BatchLogRecordProcessor`'s option of the same name and default).
   * @default 1000
   */
  scheduledDelayMillis?: number;
  /**
   * Most records in one batch (at most 10 000, what the receiver takes per request).
   * `BatchLogRecordProcessor`'s default is 512; records in the processor are already
   * serialized, so larger batches cost no memory beyond their bytes and save requests.
   * @default 2048
   */
  maxExportBatchSize?: number;
}
