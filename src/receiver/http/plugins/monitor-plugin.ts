import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Runs the background workers of monitor notifications: the webhook delivery worker and the
 * health-check scheduler start once the app is ready (after the seed) and stop when it
 * starts closing. Deliveries in flight are aborted and stay pending in the database, so a
 * restart with the same file sends them.
 */
async function monitorPlugin(app: FastifyInstance) {
  const { webhooks, healthChecker } = app.receiver;
  app.addHook('onReady', async () => {
    webhooks.start();
    healthChecker.start();
  });
  app.addHook('preClose', async () => {
    await Promise.all([webhooks.stop(), healthChecker.stop()]);
  });
}

export default fp(monitorPlugin, {
  name: 'reslog-monitor',
  fastify: '5.x',
  dependencies: ['reslog-storage'],
});
