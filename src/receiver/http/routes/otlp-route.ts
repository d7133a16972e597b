import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ingest } from '../../ingest/ingest-service.js';
import { fromOtlp } from '../../ingest/otlp-mapper.js';
import { nanosFromMillis } from '../../ingest/timestamps.js';
import { requireJsonBody } from './ingest-route.js';
import { errorResponses, RESOURCE_BASES } from './schemas.js';

/**
 * `POST /u/{username}/resources/{uuid}/v1/logs` and `POST /team/{team}/resources/{uuid}/v1/logs`:
 * OTLP/HTTP JSON with the ingest route's auth,
 * limits and faults. Answers 200 `{}` or `{"partialSuccess": {...}}` as the OTLP spec says;
 * protobuf gets 415 (only the JSON encoding is implemented).
 */
export async function otlpRoute(app: FastifyInstance) {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const access = request.access;
    if (!access) throw new Error('otlp route ran without resourceAccess');
    const receivedNs = nanosFromMillis(app.receiver.clock());
    let accepted = 0;
    let rejected = 0;
    const messages: string[] = [];
    const batches = fromOtlp(request.body, receivedNs);
    // One request may carry several OTLP resources: each becomes one commit of its own.
    batches.forEach(({ batch, logs, errors }, i) => {
      const result = ingest(app.receiver, {
        access,
        batch,
        bodyDigest: request.bodyDigest ?? '',
        idempotencyKey: undefined,
        requestId: batches.length > 1 ? `${request.id}.${i}` : request.id,
        converted: { logs, errors },
      });
      accepted += result.body.accepted;
      rejected += result.body.rejected;
      for (const error of result.body.errors)
        messages.push(`record ${error.index}: ${error.message}`);
    });
    request.notes.accepted = accepted;
    request.notes.rejected = rejected;
    if (request.notes.fault && 'commitThenReset' in request.notes.fault.action) {
      app.resetConnection(request, reply);
      return reply;
    }
    if (rejected === 0) return {};
    return { partialSuccess: { rejectedLogRecords: rejected, errorMessage: messages.join('; ') } };
  };

  for (const { base, params } of RESOURCE_BASES) {
    app.post(
      `${base}/:uuid/v1/logs`,
      {
        schema: {
          params,
          body: { type: 'object', properties: { resourceLogs: { type: 'array' } } },
          response: {
            200: {
              type: 'object',
              properties: {
                partialSuccess: {
                  type: 'object',
                  properties: {
                    rejectedLogRecords: { type: 'integer' },
                    errorMessage: { type: 'string' },
                  },
                },
              },
            },
            ...errorResponses,
          },
        },
        onRequest: [app.admitLoad, app.resourceAccess('write'), app.rateLimit, app.injectFaults],
        preValidation: requireJsonBody,
      },
      handler,
    );
  }
}
