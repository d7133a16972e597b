import type { FastifyError, FastifyInstance } from 'fastify';
import { errorBody, ReceiverErrorCodes, ReceiverHttpError } from './http-errors.js';

const C = ReceiverErrorCodes;

/** Fastify's own errors, mapped onto the receiver's codes. */
function classify(error: FastifyError): { status: number; code: string; message: string } {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: C.PAYLOAD_TOO_LARGE, message: error.message };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        code: C.UNSUPPORTED_MEDIA_TYPE,
        message:
          'only Content-Type: application/json is accepted (OTLP: use the JSON encoding, protobuf is not supported)',
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: C.INVALID_BODY, message: error.message };
  }
  if (error.validation) {
    const where = error.validationContext ?? 'request';
    return {
      status: 400,
      code: where === 'body' ? C.INVALID_BODY : C.INVALID_REQUEST,
      message: error.message,
    };
  }
  const status = error.statusCode ?? 500;
  if (status === 408) return { status, code: C.REQUEST_TIMEOUT, message: 'request timed out' };
  if (status >= 400 && status < 500)
    return { status, code: C.INVALID_REQUEST, message: error.message };
  return { status: 500, code: C.INTERNAL, message: 'internal error' };
}

/** Every error answer is `{"error": {code, message, request_id}}`, never a stack trace. */
export function installErrorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status: number;
    let code: string;
    let message: string;
    if (error instanceof ReceiverHttpError) {
      ({ statusCode: status, code, message } = error);
      if (error.retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(error.retryAfterSeconds));
      }
    } else {
      ({ status, code, message } = classify(error));
    }
    if (status >= 500 && !(error instanceof ReceiverHttpError)) {
      request.log.error({ err: error }, 'request failed');
    }
    return reply.code(status).send(errorBody(code, message, request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    return reply
      .code(404)
      .send(
        errorBody(
          C.NOT_FOUND,
          `no route ${request.method} ${request.url.split('?')[0]}`,
          request.id,
        ),
      );
  });
}
