import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ReceiverContext } from '../../receiver-context.js';
import { applySeed } from '../../seed.js';
import { IDEMPOTENCY_TTL_MILLIS } from '../../store/idempotency-store.js';

/**
 * Owns the store's lifetime: applies the start seed, forgets expired idempotency keys (at
 * start and hourly) and closes the database when the app closes, after in-flight requests.
 */
async function storagePlugin(app: FastifyInstance, context: ReceiverContext) {
  app.decorate('receiver', context);
  const { store } = context;
  if (context.seed) applySeed(store, context.seed);
  store.idempotency.purgeExpired(context.clock());
  const purge = setInterval(
    () => store.idempotency.purgeExpired(context.clock()),
    IDEMPOTENCY_TTL_MILLIS / 24,
  );
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    // Log alerts of the last commits are evaluated before the database closes.
    context.monitor.flush();
    store.close();
  });
}

export default fp(storagePlugin, { name: 'reslog-storage', fastify: '5.x' });
