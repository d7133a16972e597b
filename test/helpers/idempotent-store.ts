import type { ReceivedRequest, Reply, Responder } from './ingest-server.js';

/**
 * What a correct service does with `Idempotency-Key`: the first request with a key stores its
 * records; a repeat stores nothing and replays the answer. Tests use it to prove that retries
 * create no duplicates, and `fault` to inject failures before or after the commit.
 */
export function createIdempotentStore() {
  const stored: { key: string; message: string }[] = [];
  const answered = new Map<string, Reply>();

  const commit = (request: ReceivedRequest): Reply => {
    const key = String(request.headers['idempotency-key']);
    const previous = answered.get(key);
    if (previous) return previous;
    for (const log of request.body.logs) stored.push({ key, message: log.message });
    const reply: Reply = {
      status: 202,
      body: { accepted: request.body.logs.length, rejected: 0, request_id: key, errors: [] },
    };
    answered.set(key, reply);
    return reply;
  };

  return {
    stored,
    messages: () => stored.map((s) => s.message),
    /** A responder that commits, unless `fault` returns a reply for this attempt. */
    responder(
      fault: (request: ReceivedRequest, index: number) => Reply | 'commit-then-reset' | undefined,
    ): Responder {
      return (request, index) => {
        const injected = fault(request, index);
        if (injected === 'commit-then-reset') {
          commit(request);
          return { reset: true };
        }
        return injected ?? commit(request);
      };
    },
  };
}
