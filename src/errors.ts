/**
 * Every error reslog creates, in one place, each with a stable `code` a caller can switch on.
 * The codes are listed in docs/errors.md; the shape follows undici's `lib/core/errors.js`.
 */

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

/** Why records were dropped; the keys of `getStats().dropped`. */
export type DropReason =
  | 'unmapped'
  | 'unresolved_key'
  | 'rejected'
  | 'oversize'
  | 'retry_budget'
  | 'shutdown'
  | 'backlog_full'
  | 'expired'
  | 'spool_corrupt';

/**
 * Handed to the export callback when an export lost records. `dropped` counts them by reason;
 * `causes` holds the first error seen for each target.
 */
export class ExportFailedError extends ReslogError {
  readonly dropped: Readonly<Partial<Record<DropReason, number>>>;
  readonly causes: readonly ReslogError[];

  constructor(dropped: Partial<Record<DropReason, number>>, causes: ReslogError[]) {
    const summary = Object.entries(dropped)
      .map(([reason, count]) => `${count} ${reason}`)
      .join(', ');
    const first = causes[0] ? `: ${causes[0].message}` : '';
    super(ErrorCodes.EXPORT_FAILED, `export lost records (${summary})${first}`);
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
