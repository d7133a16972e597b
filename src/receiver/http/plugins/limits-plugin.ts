import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { receiverError } from '../../errors.js';
import { decodeJsonBody } from '../../ingest/json-body.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook: admits a key request to one of `maxInFlight` slots, or queues it (its
     * body unread) until one is free; 503 + Retry-After when the queue is full too.
     */
    admitLoad: onRequestHookHandler;
    /**
     * Gives `request`'s slot back before its answer ends: a follow stream, answered for
     * minutes, holds a slot only while it starts (docs/receiver.md, "Follow"). Idempotent.
     */
    releaseLoad(request: FastifyRequest): void;
    /** onRequest hook (after `resourceAccess`): per-key token bucket, 429 + Retry-After. */
    rateLimit: onRequestHookHandler;
  }
  interface FastifyContextConfig {
    /**
     * The route takes the service's ingest body (`{..., logs: [...]}` or one record): too deep
     * a record rejects that record only, and numbers a double cannot hold keep their text.
     */
    ingestBody?: boolean;
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
        request.routeOptions.config?.ingestBody === true,
      );
      // Only replays of an Idempotency-Key compare digests: other requests skip the hash.
      if (request.headers['idempotency-key'] !== undefined) request.bodyDigest = decoded.digest();
      return decoded.value;
    },
  );

  // Slots are handed from a finished request straight to the oldest waiting one. Waiting
  // requests have not had their bodies read (the parser runs after onRequest hooks), so the
  // queue holds sockets and headers, not bodies: SQLite commits one request at a time anyway,
  // and a burst of one-record requests (what the service's SDKs send) waits instead of
  // being refused (docs/receiver.md, "Limits").
  let active = 0;
  const waiting = new Set<() => void>();
  const release = () => {
    const next = waiting.values().next();
    if (next.done) {
      active--;
      return;
    }
    waiting.delete(next.value);
    next.value();
  };
  /** Each admitted request's way to give its slot back, once (on 'close' or releaseLoad). */
  const slots = new WeakMap<FastifyRequest, () => void>();
  const hold = (request: FastifyRequest, reply: FastifyReply) => {
    let held = true;
    const giveBack = () => {
      if (!held) return;
      held = false;
      reply.raw.off('close', giveBack);
      release();
    };
    slots.set(request, giveBack);
    reply.raw.once('close', giveBack);
  };
  app.decorate(
    'admitLoad',
    function admitLoad(
      request: FastifyRequest,
      reply: FastifyReply,
      done: (error?: Error) => void,
    ) {
      // 'close' fires once the answer is sent or the connection is gone, whichever comes first.
      if (active < limits.maxInFlight) {
        active++;
        hold(request, reply);
        done();
        return;
      }
      if (waiting.size >= limits.maxQueuedRequests) {
        done(receiverError('overloaded', undefined, { retryAfterSeconds: 1 }));
        return;
      }
      const gone = () => waiting.delete(admit);
      const admit = () => {
        reply.raw.off('close', gone);
        hold(request, reply);
        done();
      };
      waiting.add(admit);
      // A client that leaves while waiting gives up its place.
      reply.raw.once('close', gone);
    },
  );
  app.decorate('releaseLoad', (request: FastifyRequest) => slots.get(request)?.());

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
        done(receiverError('rate_limited', undefined, { retryAfterSeconds: wait }));
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
