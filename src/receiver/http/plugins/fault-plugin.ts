import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { receiverError } from '../../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: fires the first matching fault rule (`POST /_receiver/faults`). */
    injectFaults: onRequestHookHandler;
    /** Drops the connection without an answer (journaled with status null). */
    resetConnection(request: FastifyRequest, reply: FastifyReply): void;
  }
}

/** Fault injection on the data plane (ingest and OTLP), for exporter tests. */
async function faultPlugin(app: FastifyInstance) {
  const { faults, metrics } = app.receiver;

  app.decorate('resetConnection', (request: FastifyRequest, reply: FastifyReply) => {
    app.journalRequest(request, null);
    reply.hijack();
    request.raw.socket?.destroy();
  });

  app.decorate(
    'injectFaults',
    async function injectFaults(request: FastifyRequest, reply: FastifyReply) {
      const params = request.params as { username?: string; uuid?: string };
      const rule = faults.fire({
        username: params.username ?? '',
        resource: (params.uuid ?? '').toLowerCase(),
      });
      if (!rule) return;
      request.notes.fault = rule;
      metrics.faultFired();
      const action = rule.action;
      request.log.info({ fault: rule.id, action }, 'fault injected');
      if ('status' in action) {
        throw receiverError('fault_injected', `fault ${rule.id} injected status ${action.status}`, {
          status: action.status,
          retryAfterSeconds: action.retryAfter,
        });
      }
      if ('delayMillis' in action) {
        const closed = new AbortController();
        const onClose = () => closed.abort();
        reply.raw.once('close', onClose);
        await delay(action.delayMillis, undefined, { signal: closed.signal }).catch(() => {});
        reply.raw.off('close', onClose);
        return;
      }
      if ('reset' in action) app.resetConnection(request, reply);
      // commitThenReset: the route stores the batch, then resets instead of answering.
    },
  );
}

export default fp(faultPlugin, {
  name: 'reslog-faults',
  fastify: '5.x',
  dependencies: ['reslog-storage', 'reslog-observability'],
});
