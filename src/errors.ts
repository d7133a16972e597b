/**
 * Every error reslog creates, in one place, each with a stable `code` a caller can switch on.
 * The codes are listed in docs/errors.md; the shape follows undici's `lib/core/errors.js`.
 */

import type { DropReason } from './exporter/stats-types.js';

/** Stable error codes. Never renamed once released; new ones are only added. */
export const ErrorCodes = {
  INVALID_OPTION: 'RESLOG_INVALID_OPTION',
  HTTP: 'RESLOG_HTTP_ERROR',
  NETWORK: 'RESLOG_NETWORK_ERROR',
  TIMEOUT: 'RESLOG_TIMEOUT',
  EXPORT_FAILED: 'RESLOG_EXPORT_FAILED',
  SHUTDOWN: 'RESLOG_SHUTDOWN',
  UNMAPPED: 'RESLOG_UNMAPPED',
  KEY_LOOKUP_FAILED: 'RESLOG_KEY_LOOKUP_FAILED',
  CIRCUIT_OPEN: 'RESLOG_CIRCUIT_OPEN',
  OVERSIZE: 'RESLOG_OVERSIZE',
  BACKLOG_FULL: 'RESLOG_BACKLOG_FULL',
  EXPIRED: 'RESLOG_EXPIRED',
  SPOOL_CORRUPT: 'RESLOG_SPOOL_CORRUPT',
  RECORDS_REJECTED: 'RESLOG_RECORDS_REJECTED',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Base class of every error reslog reports. */
export class ReslogError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ReslogError';
    this.code = code;
  }
}

/** An option passed in code is invalid; the message names the option, the expectation and the value. */
export class InvalidOptionError extends ReslogError {
  readonly option: string;

  constructor(option: string, expected: string, actual: unknown) {
    super(ErrorCodes.INVALID_OPTION, `${option} must be ${expected}, got ${describeValue(actual)}`);
    this.name = 'InvalidOptionError';
    this.option = option;
  }
}

/** The service answered with a status that means the request failed. */
export class HttpError extends ReslogError {
  readonly statusCode: number;
  /** The `error.code` from the service's JSON error body, when it sent one. */
  readonly serverCode: string | undefined;

  constructor(statusCode: number, serverCode: string | undefined, message: string) {
    super(ErrorCodes.HTTP, message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.serverCode = serverCode;
  }
}

/** The request never got an HTTP answer (connection refused or reset, DNS, TLS). */
export class NetworkError extends ReslogError {
  constructor(message: string, cause?: unknown, code: ErrorCode = ErrorCodes.NETWORK) {
    super(code, message, { cause });
    this.name = 'NetworkError';
  }
}

/** An attempt took longer than `timeoutMillis`, or the export ran out of `exportTimeoutMillis`. */
export class TimeoutError extends NetworkError {
  constructor(message: string, cause?: unknown) {
    super(message, cause, ErrorCodes.TIMEOUT);
    this.name = 'TimeoutError';
  }
}

/**
 * The service acknowledged a batch (2xx) but rejected some of its records: `rejected` counts
 * them, `errors` holds the service's per-record errors (messages scrubbed of the API key).
 */
export class RejectedRecordsError extends ReslogError {
  readonly statusCode: number;
  readonly rejected: number;
  readonly errors: readonly RecordError[];

  constructor(statusCode: number, rejected: number, sent: number, errors: readonly RecordError[]) {
    const first = errors[0];
    const detail = first?.message ? `: ${first.message}` : first?.code ? `: ${first.code}` : '';
    super(ErrorCodes.RECORDS_REJECTED, `service rejected ${rejected} of ${sent} records${detail}`);
    this.name = 'RejectedRecordsError';
    this.statusCode = statusCode;
    this.rejected = rejected;
    this.errors = errors;
  }
}

/** One record's error in a service's partial acknowledgement (`errors[]` of a 202). */
export interface RecordError {
  /** Position of the record in the batch, when the service said. */
  readonly index?: number;
  /** The service's code for it, for example `invalid_level`. */
  readonly code?: string;
  readonly message?: string;
}

/** No routing attribute, rule or default resource maps the record; the message says why. */
export class UnmappedError extends ReslogError {
  constructor(message: string) {
    super(ErrorCodes.UNMAPPED, message);
    this.name = 'UnmappedError';
  }
}

/** A resource key could not be turned into a UUID; it is looked up again on the next export. */
export class KeyLookupError extends ReslogError {
  /** The resource key that was looked up. */
  readonly key: string;

  constructor(key: string, message: string, cause?: unknown) {
    super(ErrorCodes.KEY_LOOKUP_FAILED, message, cause === undefined ? undefined : { cause });
    this.name = 'KeyLookupError';
    this.key = key;
  }
}

/** The target is paused after repeated permanent failures; no request was made. */
export class CircuitOpenError extends ReslogError {
  /** How much longer the target stays paused, in milliseconds. */
  readonly pausedMillis: number;

  constructor(target: string, pausedMillis: number) {
    super(
      ErrorCodes.CIRCUIT_OPEN,
      `${target} is paused for ${Math.ceil(pausedMillis / 1000)} s after repeated permanent failures`,
    );
    this.name = 'CircuitOpenError';
    this.pausedMillis = pausedMillis;
  }
}

/** One record is larger than `maxBatchBytes` on its own. */
export class OversizeError extends ReslogError {
  constructor(message: string) {
    super(ErrorCodes.OVERSIZE, message);
    this.name = 'OversizeError';
  }
}

/** The backlog or the spool was full, or one batch was larger than the whole bound. */
export class BacklogFullError extends ReslogError {
  constructor(message: string) {
    super(ErrorCodes.BACKLOG_FULL, message);
    this.name = 'BacklogFullError';
  }
}

/** A queued batch was older than `maxBacklogAgeMillis`. */
export class ExpiredError extends ReslogError {
  constructor(message: string) {
    super(ErrorCodes.EXPIRED, message);
    this.name = 'ExpiredError';
  }
}

/** A spooled batch could not be read back from disk. */
export class SpoolCorruptError extends ReslogError {
  constructor(message: string) {
    super(ErrorCodes.SPOOL_CORRUPT, message);
    this.name = 'SpoolCorruptError';
  }
}

/** Records came after `shutdown()`, or were still queued when it gave up (no spool). */
export class ShutdownError extends ReslogError {
  constructor(message: string) {
    super(ErrorCodes.SHUTDOWN, message);
    this.name = 'ShutdownError';
  }
}

/**
 * Handed to the export callback when an export lost records. `dropped` counts them by reason;
 * `causes` holds the first error seen for each target.
 */
export class ExportFailedError extends ReslogError {
  readonly dropped: Readonly<Partial<Record<DropReason, number>>>;
  readonly causes: readonly ReslogError[];

  /** `detail` stands in for the first cause's message when there is no cause to hold. */
  constructor(
    dropped: Partial<Record<DropReason, number>>,
    causes: ReslogError[],
    options?: { detail?: string; cause?: unknown },
  ) {
    const summary = Object.entries(dropped)
      .map(([reason, count]) => `${count} ${reason}`)
      .join(', ');
    const why = causes[0]?.message ?? options?.detail;
    super(
      ErrorCodes.EXPORT_FAILED,
      `export lost records (${summary})${why ? `: ${why}` : ''}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ExportFailedError';
    this.dropped = dropped;
    this.causes = causes;
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof RegExp) return String(value);
  if (typeof value === 'function') return 'a function';
  if (value === null || typeof value !== 'object') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
