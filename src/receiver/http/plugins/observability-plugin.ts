import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type JournalEntry, redactHeaders } from '../../control/request-journal.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Writes the request to the journal now (for connections that get no answer). */
    journalRequest(request: FastifyRequest, status: number | null): void;
  }
}

/** Paths the journal leaves out: the control plane and scrapes would drown the data plane. */
function journaled(url: string): boolean {
  return !url.startsWith('/_receiver/') && url !== '/metrics';
}

/** Request ids on every answer, Prometheus metrics and the request journal. */
async function observabilityPlugin(app: FastifyInstance) {
  const { journal, metrics } = app.receiver;
  app.decorateRequest('access', undefined);
  app.decorateRequest('bodyDigest', undefined);
  app.decorateRequest('notes', undefined as never);

  app.addHook('onRequest', async (request, reply) => {
    request.notes = { route: request.routeOptions.url ?? 'unmatched' };
    reply.header('x-request-id', request.id);
  });

  const entryOf = (request: FastifyRequest, status: number | null): JournalEntry => {
    const notes = request.notes;
    const idempotencyKey = request.headers['idempotency-key'];
    return {
      request_id: request.id,
      time: new Date(app.receiver.clock()).toISOString(),
      method: request.method,
      path: request.url,
      status,
      duration_ms: status === null ? null : Math.round(elapsedMillis(request) * 1000) / 1000,
      username: notes.principal?.username ?? null,
      key: notes.principal?.keyLabel ?? null,
      resource: notes.resource ?? null,
      idempotency_key: typeof idempotencyKey === 'string' ? idempotencyKey : null,
      replayed: notes.replayed ?? false,
      accepted: notes.accepted ?? null,
      rejected: notes.rejected ?? null,
      headers: redactHeaders(request.headers),
      fault: notes.fault ? { id: notes.fault.id, action: notes.fault.action } : null,
    };
  };
  const started = new WeakMap<FastifyRequest, bigint>();
  const elapsedMillis = (request: FastifyRequest) => {
    const start = started.get(request);
    return start === undefined ? 0 : Number(process.hrtime.bigint() - start) / 1e6;
  };
  app.addHook('onRequest', async (request) => {
    started.set(request, process.hrtime.bigint());
  });

  app.decorate('journalRequest', (request: FastifyRequest, status: number | null) => {
    if (request.notes.journaled) return;
    request.notes.journaled = true;
    journal.record(entryOf(request, status));
  });

  app.addHook('onResponse', async (request, response) => {
    metrics.request(request.notes.route, response.statusCode, elapsedMillis(request) / 1000);
    if (journaled(request.url)) app.journalRequest(request, response.statusCode);
  });
}

export default fp(observabilityPlugin, {
  name: 'reslog-observability',
  fastify: '5.x',
  dependencies: ['reslog-storage'],
});
