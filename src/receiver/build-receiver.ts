import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { installErrorHandlers } from './error-handler.js';
import { createFaultRegistry } from './fault-rules.js';
import { createLogEvents } from './log-events.js';
import { createMetrics } from './metrics.js';
import authPlugin from './plugins/auth-plugin.js';
import faultPlugin from './plugins/fault-plugin.js';
import limitsPlugin from './plugins/limits-plugin.js';
import observabilityPlugin from './plugins/observability-plugin.js';
import storagePlugin from './plugins/storage-plugin.js';
import { createRateLimiter } from './rate-limiter.js';
import type { ReceiverContext } from './receiver-context.js';
import { normalizeLimits, type ReceiverOptions } from './receiver-options.js';
import { createRequestJournal } from './request-journal.js';
import { adminRoutes } from './routes/admin-routes.js';
import { controlRoutes, probeRoutes } from './routes/control-routes.js';
import { ingestRoute } from './routes/ingest-route.js';
import { otlpRoute } from './routes/otlp-route.js';
import { readRoutes } from './routes/read-routes.js';
import { validateSeed } from './seed.js';
import { createStore } from './store/create-store.js';

/** Log paths that could carry secrets; pino replaces them with `[Redacted]`. */
const REDACT = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
];

/**
 * The reference receiver (DESIGN.md §4) as a fastify instance that is not listening yet:
 * `await app.listen({ port: 0, host: '127.0.0.1' })` or `app.inject(...)`. Opens the database
 * and checks the seed now, so bad options throw here; `app.close()` closes the database.
 */
export function buildReceiver(options: ReceiverOptions = {}): FastifyInstance {
  const limits = normalizeLimits(options.limits);
  const clock = options.clock ?? Date.now;
  const seed = options.seed === undefined ? undefined : validateSeed(options.seed);
  const store = createStore(options.db ?? ':memory:', () => new Date(clock()).toISOString());
  const context: ReceiverContext = {
    store,
    limits,
    clock,
    adminToken: options.adminToken ?? randomBytes(24).toString('base64url'),
    faults: createFaultRegistry(),
    journal: createRequestJournal(options.journalSize ?? 1000),
    metrics: createMetrics(),
    events: createLogEvents(),
    rateLimiter: createRateLimiter(limits.rateLimitPerSecond, limits.rateLimitBurst, clock),
    seed,
  };

  const logger =
    options.logger === undefined || options.logger === false
      ? false
      : { ...(options.logger === true ? {} : options.logger), redact: REDACT };
  const app = Fastify({
    logger,
    genReqId: () => `req_${randomUUID().replaceAll('-', '')}`,
    requestIdHeader: false,
    bodyLimit: limits.maxBodyBytes,
    requestTimeout: limits.requestTimeoutMillis,
    // Keep-alive sockets must not outlive shutdown: close idle ones, finish the busy ones.
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false },
    ajv: { customOptions: { allowUnionTypes: true } },
  });
  app.server.headersTimeout = limits.headersTimeoutMillis;

  // Graceful close: answers still in flight say `Connection: close`, and sockets that turn idle
  // afterwards are closed, so `app.close()` ends once the last answer is out.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async () => {
    if (closing) app.server.closeIdleConnections();
  });

  installErrorHandlers(app);
  app.register(storagePlugin, context);
  app.register(observabilityPlugin);
  app.register(limitsPlugin);
  app.register(authPlugin);
  app.register(faultPlugin);
  app.register(probeRoutes);
  app.register(ingestRoute);
  app.register(otlpRoute);
  app.register(readRoutes);
  app.register(adminRoutes);
  app.register(controlRoutes);
  return app;
}
