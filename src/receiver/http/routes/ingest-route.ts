import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { receiverError } from '../../errors.js';
import { readIngestBody } from '../../ingest/ingest-body.js';
import { ingest } from '../../ingest/ingest-service.js';
import { errorResponses, ingestAnswerSchema, RESOURCE_BASES } from './schemas.js';

/** A body-less POST never reached the JSON parser: it is "not JSON" (415), like text/plain. */
export async function requireJsonBody(request: FastifyRequest) {
  if (request.body === undefined) {
    throw receiverError(
      'unsupported_media_type',
      'send a JSON body with Content-Type: application/json',
    );
  }
}

/**
 * `POST /u/{username}/resources/{uuid}/logs/` and `POST /team/{team}/resources/{uuid}/logs/`
 * (docs/receiver.md, "Ingest"), with and without the trailing slash. Hooks run in order:
 * overload, auth (a role that may write), rate limit, faults; then the JSON parser applies
 * the body limits; the handler answers after the commit.
 */
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

  const options = (params: (typeof RESOURCE_BASES)[number]['params']) => ({
    schema: {
      params,
      headers: {
        type: 'object',
        properties: { 'idempotency-key': { type: 'string', minLength: 1, maxLength: 255 } },
      },
      body: { type: 'object' },
      response: { 202: ingestAnswerSchema, ...errorResponses },
    },
    onRequest: [app.admitLoad, app.resourceAccess('write'), app.rateLimit, app.injectFaults],
    preValidation: requireJsonBody,
    // Per-record depth limit and exact numbers in the JSON parser (limits-plugin.ts).
    config: { ingestBody: true },
  });
  for (const { base, params } of RESOURCE_BASES) {
    app.post(`${base}/:uuid/logs/`, options(params), handler);
    app.post(`${base}/:uuid/logs`, options(params), handler);
  }
}
