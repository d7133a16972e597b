import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unsupportedMediaType } from '../http-errors.js';
import { readIngestBody } from '../ingest-body.js';
import { ingest } from '../ingest-service.js';
import { errorResponses, ingestAnswerSchema, resourceParamsSchema } from './schemas.js';

/**
 * `POST /u/{username}/resources/{uuid}/logs/` (DESIGN.md §2), with and without the trailing
 * slash. Hooks run in order: overload, auth (owner or editor), rate limit, faults; then the
 * JSON parser applies the body limits; the handler answers after the commit.
 */
/** A body-less POST never reached the JSON parser: it is "not JSON" (415), like text/plain. */
export async function requireJsonBody(request: FastifyRequest) {
  if (request.body === undefined) {
    throw unsupportedMediaType('send a JSON body with Content-Type: application/json');
  }
}

export async function ingestRoute(app: FastifyInstance) {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const access = request.access;
    if (!access) throw new Error('ingest route ran without resourceAccess');
    const { limits } = app.receiver;
    const batch = readIngestBody(request.body, access.resource.uuid, limits.maxRecordsPerRequest);
    const idempotencyKey = request.headers['idempotency-key'];
    const result = ingest(app.receiver, {
      access,
      batch,
      bodyDigest: request.bodyDigest ?? '',
      idempotencyKey:
        typeof idempotencyKey === 'string' && idempotencyKey !== '' ? idempotencyKey : undefined,
      requestId: request.id,
    });
    request.notes.accepted = result.body.accepted;
    request.notes.rejected = result.body.rejected;
    request.notes.replayed = result.replayed;
    if (request.notes.fault && 'commitThenReset' in request.notes.fault.action) {
      app.resetConnection(request, reply);
      return reply;
    }
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(result.status).send(result.body);
  };

  const options = {
    schema: {
      params: resourceParamsSchema,
      headers: {
        type: 'object',
        properties: { 'idempotency-key': { type: 'string', minLength: 1, maxLength: 255 } },
      },
      body: { type: 'object' },
      response: { 202: ingestAnswerSchema, ...errorResponses },
    },
    onRequest: [app.admitLoad, app.resourceAccess('write'), app.rateLimit, app.injectFaults],
    preValidation: requireJsonBody,
  };
  app.post('/u/:username/resources/:uuid/logs/', options, handler);
  app.post('/u/:username/resources/:uuid/logs', options, handler);
}
