import type { ErrorBody } from '../contract/ingest-answer.js';

/**
 * Every error the receiver makes, in one place (docs/errors.md, "Receiver"): the error
 * answers, each made from one row of {@link RECEIVER_ERRORS}, and the errors thrown before
 * it serves (a bad option, a bad seed). Every code is stable: clients switch on it.
 */

/**
 * Every code the receiver answers with, with its status and the message used when the call
 * site has no more precise one. An answer is always `{"error": {code, message, request_id}}`.
 */
export const RECEIVER_ERRORS = {
  invalid_body: { status: 400, message: 'request body is not valid' },
  invalid_request: { status: 400, message: 'request is not valid' },
  resource_id_mismatch: {
    status: 400,
    message: 'resource_id does not match the resource UUID in the path',
  },
  nesting_too_deep: { status: 400, message: 'request body is nested too deeply' },
  missing_api_key: { status: 401, message: 'X-API-Key header is required' },
  invalid_api_key: { status: 401, message: 'API key is not valid' },
  username_mismatch: {
    status: 401,
    message: 'X-User-Username does not name the account of the API key',
  },
  admin_unauthorized: {
    status: 401,
    message: 'Authorization: Bearer <admin token> is required',
  },
  forbidden: { status: 403, message: 'your role does not allow this action' },
  not_found: { status: 404, message: 'resource not found' },
  invalid_resource: {
    status: 404,
    message: 'no resource with this owner and UUID (or key) is visible to this API key',
  },
  request_timeout: { status: 408, message: 'request timed out' },
  conflict: { status: 409, message: 'conflict' },
  payload_too_large: { status: 413, message: 'request body is too large' },
  too_many_records: { status: 413, message: 'too many records in one request' },
  unsupported_media_type: {
    status: 415,
    message: 'send a JSON body with Content-Type: application/json',
  },
  unsupported_encoding: {
    status: 415,
    message: 'Content-Encoding is not supported (use gzip or none)',
  },
  idempotency_key_reused: {
    status: 422,
    message: 'Idempotency-Key was already used with a different body',
  },
  rate_limited: { status: 429, message: 'too many requests for this API key' },
  internal_error: { status: 500, message: 'internal error' },
  /** Answered with the fault rule's status (any 4xx or 5xx); 500 is only the nominal one. */
  fault_injected: { status: 500, message: 'fault injected', statusVaries: true },
  overloaded: { status: 503, message: 'the receiver is overloaded, retry later' },
  not_ready: { status: 503, message: 'the receiver is not ready' },
  console_unavailable: {
    status: 503,
    message: 'console assets not built: run npm run build',
  },
} as const satisfies Record<string, ReceiverErrorEntry>;

/** One row of {@link RECEIVER_ERRORS}. */
export interface ReceiverErrorEntry {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The message when the call site gives none. */
  readonly message: string;
  /** The answer's status is chosen where it is made (a fault rule's), not this one. */
  readonly statusVaries?: true;
}

/** A code of {@link RECEIVER_ERRORS}: what `error.code` of an error answer may be. */
export type ReceiverErrorCode = keyof typeof RECEIVER_ERRORS;

/** Constant names of the codes, kept for code that used them before {@link RECEIVER_ERRORS}. */
export const ReceiverErrorCodes = {
  INVALID_BODY: 'invalid_body',
  INVALID_REQUEST: 'invalid_request',
  RESOURCE_ID_MISMATCH: 'resource_id_mismatch',
  NESTING_TOO_DEEP: 'nesting_too_deep',
  TOO_MANY_RECORDS: 'too_many_records',
  MISSING_API_KEY: 'missing_api_key',
  INVALID_API_KEY: 'invalid_api_key',
  USERNAME_MISMATCH: 'username_mismatch',
  ADMIN_UNAUTHORIZED: 'admin_unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  INVALID_RESOURCE: 'invalid_resource',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  UNSUPPORTED_ENCODING: 'unsupported_encoding',
  IDEMPOTENCY_KEY_REUSED: 'idempotency_key_reused',
  RATE_LIMITED: 'rate_limited',
  OVERLOADED: 'overloaded',
  NOT_READY: 'not_ready',
  CONSOLE_UNAVAILABLE: 'console_unavailable',
  FAULT_INJECTED: 'fault_injected',
  REQUEST_TIMEOUT: 'request_timeout',
  INTERNAL: 'internal_error',
} as const satisfies Record<string, ReceiverErrorCode>;

/** An error that becomes an HTTP answer with its status, code and optional `Retry-After`. */
export class ReceiverHttpError extends Error {
  override readonly name = 'ReceiverHttpError';
  readonly statusCode: number;
  readonly code: ReceiverErrorCode;
  /** Whole seconds for the `Retry-After` header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    statusCode: number,
    code: ReceiverErrorCode,
    message: string,
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The answer's body (the contract's `ErrorBody`). */
  toBody(requestId: string): ErrorBody<ReceiverErrorCode> {
    return errorBody(this.code, this.message, requestId);
  }
}

export interface ReceiverErrorOptions {
  /** Whole seconds for the `Retry-After` header. */
  retryAfterSeconds?: number | undefined;
  /**
   * Only for the codes whose status is not fixed: `fault_injected` (the rule's status) and
   * `invalid_request` for another 4xx fastify raised.
   */
  status?: number | undefined;
}

/**
 * The one way to make an error answer: the status and default message come from
 * {@link RECEIVER_ERRORS}; `message` replaces the default with a more precise one.
 */
export function receiverError(
  code: ReceiverErrorCode,
  message?: string,
  options: ReceiverErrorOptions = {},
): ReceiverHttpError {
  const entry = RECEIVER_ERRORS[code];
  return new ReceiverHttpError(
    options.status ?? entry.status,
    code,
    message ?? entry.message,
    options.retryAfterSeconds,
  );
}

/** Body of an error answer. */
export function errorBody(
  code: ReceiverErrorCode,
  message: string,
  requestId: string,
): ErrorBody<ReceiverErrorCode> {
  return { error: { code, message, request_id: requestId } };
}

/** JSON schema of an error answer, shared by every route's response schemas. */
export const errorResponseSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        request_id: { type: 'string' },
      },
    },
  },
} as const;

/** Codes of the errors the receiver throws before it serves (docs/errors.md, "Receiver"). */
export const ReceiverSetupErrorCodes = {
  INVALID_OPTION: 'RESLOG_RECEIVER_INVALID_OPTION',
  INVALID_SEED: 'RESLOG_INVALID_SEED',
} as const;

/**
 * A receiver option (`buildReceiver`'s, or the CLI's from the environment) is invalid; the
 * message names the option, the expectation and the value. A `TypeError`, as it was before
 * it had a code.
 */
export class ReceiverOptionError extends TypeError {
  override readonly name = 'ReceiverOptionError';
  readonly code = ReceiverSetupErrorCodes.INVALID_OPTION;
}

/** A seed that cannot be used; the message names the entry (`resources[0].uuid: ...`). */
export class SeedError extends Error {
  override readonly name = 'SeedError';
  readonly code = ReceiverSetupErrorCodes.INVALID_SEED;
}
