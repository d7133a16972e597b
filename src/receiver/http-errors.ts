import type { ErrorBody } from '../contract/ingest-answer.js';

/**
 * Errors the receiver answers with. Every error response is
 * `{"error": {"code", "message", "request_id"}}`; `code` is stable and listed in
 * docs/receiver.md so clients can switch on it.
 */

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
  FAULT_INJECTED: 'fault_injected',
  REQUEST_TIMEOUT: 'request_timeout',
  INTERNAL: 'internal_error',
} as const;

export type ReceiverErrorCode = (typeof ReceiverErrorCodes)[keyof typeof ReceiverErrorCodes];

/** An error that becomes an HTTP answer with its status, code and optional `Retry-After`. */
export class ReceiverHttpError extends Error {
  override readonly name = 'ReceiverHttpError';
  readonly statusCode: number;
  readonly code: string;
  /** Whole seconds for the `Retry-After` header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(statusCode: number, code: string, message: string, retryAfterSeconds?: number) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const C = ReceiverErrorCodes;

/** The management API's one 404 for every resource a key may not see, existing or not. */
export function notFound(): ReceiverHttpError {
  return new ReceiverHttpError(404, C.NOT_FOUND, 'resource not found');
}

/**
 * The one 404 of a resource path (`/u/{owner}/resources/{uuid}/…`: ingest, read, by-key,
 * OTLP) whose owner and resource do not match, whether the resource exists or not: the
 * service's code for it is `invalid_resource` (docs/receiver.md, "Error codes").
 */
export function invalidResource(): ReceiverHttpError {
  return new ReceiverHttpError(
    404,
    C.INVALID_RESOURCE,
    'no resource with this owner and UUID (or key) is visible to this API key',
  );
}

export function badRequest(message: string, code: string = C.INVALID_BODY): ReceiverHttpError {
  return new ReceiverHttpError(400, code, message);
}

export function payloadTooLarge(limit: number): ReceiverHttpError {
  return new ReceiverHttpError(413, C.PAYLOAD_TOO_LARGE, `request body exceeds ${limit} bytes`);
}

export function unsupportedMediaType(message: string): ReceiverHttpError {
  return new ReceiverHttpError(415, C.UNSUPPORTED_MEDIA_TYPE, message);
}

/** Body of an error answer. */
export function errorBody(code: string, message: string, requestId: string): ErrorBody {
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
