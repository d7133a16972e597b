import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ReceiverErrorCodes, ReceiverHttpError } from '../http-errors.js';
import { decodeJsonBody } from '../json-body.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: 503 + Retry-After when too many key requests are in flight. */
    admitLoad: onRequestHookHandler;
    /** onRequest hook (after `resourceAccess`): per-key token bucket, 429 + Retry-After. */
    rateLimit: onRequestHookHandler;
  }
}

/**
 * Body size, gzip, nesting and prototype-key limits (in the JSON parser), the in-flight cap
 * and the per-key rate limit. Header and request timeouts are server options (buildReceiver).
 */
async function limitsPlugin(app: FastifyInstance) {
  const { limits, rateLimiter } = app.receiver;

  // Only JSON is accepted: everything else is 415 (fastify answers FST_ERR_CTP_INVALID_MEDIA_TYPE).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: limits.maxBodyBytes },
    async (request: FastifyRequest, raw: Buffer) => {
      const encoding = request.headers['content-encoding'];
      const decoded = await decodeJsonBody(
        raw,
        Array.isArray(encoding) ? encoding[0] : encoding,
        limits,
      );
      // Only replays of an Idempotency-Key compare digests: other requests skip the hash.
      if (request.headers['idempotency-key'] !== undefined) request.bodyDigest = decoded.digest();
      return decoded.value;
    },
  );

  let inFlight = 0;
  app.decorate(
    'admitLoad',
    function admitLoad(
      _request: FastifyRequest,
      reply: FastifyReply,
      done: (error?: Error) => void,
    ) {
      if (inFlight >= limits.maxInFlight) {
        done(
          new ReceiverHttpError(
            503,
            ReceiverErrorCodes.OVERLOADED,
            'the receiver is overloaded, retry later',
            1,
          ),
        );
        return;
      }
      inFlight++;
      // 'close' fires once the answer is sent or the connection is gone, whichever comes first.
      reply.raw.once('close', () => {
        inFlight--;
      });
      done();
    },
  );

  app.decorate(
    'rateLimit',
    function rateLimit(
      request: FastifyRequest,
      _reply: FastifyReply,
      done: (error?: Error) => void,
    ) {
      const keyId = request.access?.principal.keyId ?? request.notes.principal?.keyId;
      const wait = keyId === undefined ? 0 : rateLimiter.take(String(keyId));
      if (wait > 0) {
        done(
          new ReceiverHttpError(
            429,
            ReceiverErrorCodes.RATE_LIMITED,
            'too many requests for this API key',
            wait,
          ),
        );
        return;
      }
      done();
    },
  );
}

export default fp(limitsPlugin, {
  name: 'reslog-limits',
  fastify: '5.x',
  dependencies: ['reslog-storage'],
});
