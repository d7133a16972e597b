import type { FastifyError, FastifyInstance } from 'fastify';
import { ReceiverHttpError, receiverError } from '../errors.js';

/** Fastify's own errors, mapped onto the receiver's codes. */
function classify(error: FastifyError): ReceiverHttpError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return receiverError('payload_too_large', error.message);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return receiverError(
        'unsupported_media_type',
        'only Content-Type: application/json is accepted (OTLP: use the JSON encoding, protobuf is not supported)',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return receiverError('invalid_body', error.message);
  }
  if (error.validation) {
    const where = error.validationContext ?? 'request';
    return receiverError(where === 'body' ? 'invalid_body' : 'invalid_request', error.message);
  }
  const status = error.statusCode ?? 500;
  if (status === 408) return receiverError('request_timeout');
  if (status >= 400 && status < 500) {
    return receiverError('invalid_request', error.message, { status });
  }
  return receiverError('internal_error');
}

/** Every error answer is `{"error": {code, message, request_id}}`, never a stack trace. */
export function installErrorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = error instanceof ReceiverHttpError ? error : classify(error);
    if (answer.retryAfterSeconds !== undefined) {
      reply.header('retry-after', String(answer.retryAfterSeconds));
    }
    if (answer.statusCode >= 500 && answer !== error) {
      request.log.error({ err: error }, 'request failed');
    }
    return reply.code(answer.statusCode).send(answer.toBody(request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    const answer = receiverError(
      'not_found',
      `no route ${request.method} ${request.url.split('?')[0]}`,
    );
    return reply.code(answer.statusCode).send(answer.toBody(request.id));
  });
}
