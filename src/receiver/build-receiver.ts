import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { createFaultRegistry } from './control/fault-rules.js';
import { createLogEvents } from './control/log-events.js';
import { createRequestJournal } from './control/request-journal.js';
import { installErrorHandlers } from './http/error-handler.js';
import { createMetrics } from './http/metrics.js';
import { normalizePathPrefix } from './http/path-prefix.js';
import authPlugin from './http/plugins/auth-plugin.js';
import faultPlugin from './http/plugins/fault-plugin.js';
import limitsPlugin from './http/plugins/limits-plugin.js';
import monitorPlugin from './http/plugins/monitor-plugin.js';
import observabilityPlugin from './http/plugins/observability-plugin.js';
import storagePlugin from './http/plugins/storage-plugin.js';
import { createRateLimiter } from './http/rate-limiter.js';
import { accountRoutes } from './http/routes/account-routes.js';
import { consoleRoutes } from './http/routes/console-routes.js';
import { controlPlaneRoutes, probeRoutes } from './http/routes/control-plane-routes.js';
import { healthRoutes } from './http/routes/health-routes.js';
import { ingestRoute } from './http/routes/ingest-route.js';
import { memberRoutes } from './http/routes/member-routes.js';
import { openApi, openApiRoute } from './http/routes/openapi-routes.js';
import { otlpRoute } from './http/routes/otlp-route.js';
import { readRoutes } from './http/routes/read-routes.js';
import { resourceRoutes } from './http/routes/resource-routes.js';
import { teamRoutes } from './http/routes/team-routes.js';
import { createHealthChecker } from './monitor/health-checker.js';
import { createMonitor } from './monitor/monitor.js';
import { createWebhookWorker } from './monitor/webhook-worker.js';
import type { ReceiverContext } from './receiver-context.js';
import {
  normalizeHealthCheckOptions,
  normalizeLimits,
  normalizeNotificationOptions,
  type ReceiverOptions,
} from './receiver-options.js';
import { validateSeed } from './seed.js';
import { createStore } from './store/create-store.js';

/**
 * The reslog-receiver package's version, shown in the OpenAPI document: its package.json is
 * beside this file in the repository and two levels up in `dist/receiver/`.
 */
function packageVersion(): string {
  for (const path of ['./package.json', '../../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'reslog-receiver') return manifest.version ?? '0.0.0';
    } catch {
      // not this one
    }
  }
  return '0.0.0';
}

/** Log paths that could carry secrets; pino replaces them with `[Redacted]`. */
const REDACT = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
];

/**
 * The reference receiver (docs/receiver.md) as a fastify instance that is not listening yet:
 * `await app.listen({ port: 0, host: '127.0.0.1' })` or `app.inject(...)`. Opens the database
 * and checks the seed now, so bad options throw here; `app.close()` closes the database.
 */
export function buildReceiver(options: ReceiverOptions = {}): FastifyInstance {
  const limits = normalizeLimits(options.limits);
  const clock = options.clock ?? Date.now;
  const seed = options.seed === undefined ? undefined : validateSeed(options.seed);
  const notificationOptions = normalizeNotificationOptions(options.notifications);
  const healthCheckOptions = normalizeHealthCheckOptions(options.healthChecks);
  const pathPrefix = normalizePathPrefix(options.pathPrefix);
  const store = createStore(options.db ?? ':memory:', () => new Date(clock()).toISOString());
  // Background work logs through the app's logger once it exists.
  const background = {
    warn(object: object, message: string) {
      app.log.warn(object, message);
    },
  };
  const webhooks = createWebhookWorker({
    store,
    clock,
    retryDelaysMillis: notificationOptions.webhookRetryDelaysMillis,
    timeoutMillis: notificationOptions.webhookTimeoutMillis,
    pollMillis: notificationOptions.pollMillis,
    log: background,
  });
  const monitor = createMonitor({
    store,
    clock,
    coalesceWindowMillis: notificationOptions.coalesceWindowMillis,
    deliveryQueued: () => webhooks.kick(),
    onError: (error) => background.warn({ err: error }, 'log alert evaluation failed'),
  });
  const healthChecker = createHealthChecker({
    store,
    monitor,
    clock,
    failuresUntilDown: healthCheckOptions.failuresUntilDown,
    pollMillis: healthCheckOptions.pollMillis,
    log: background,
  });
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
    monitor,
    webhooks,
    healthChecker,
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
    // Node checks both timeouts only every `connectionsCheckingInterval` (30 s by default), so a
    // slowloris client could hold a socket for up to 30 s past them: check often enough that
    // they hold as documented (docs/receiver.md, "Limits").
    http: {
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(1000, Math.floor(limits.headersTimeoutMillis / 4)),
      ),
    },
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
  app.register(openApi, { version: packageVersion() });
  app.register(storagePlugin, context);
  app.register(observabilityPlugin);
  app.register(limitsPlugin);
  app.register(authPlugin);
  app.register(faultPlugin);
  app.register(monitorPlugin);
  app.register(probeRoutes);
  app.register(openApiRoute);
  // The service (data plane and management API) lives under the path prefix, if any; the
  // control plane and /metrics stay at the root (docs/receiver.md, "Path prefix").
  app.register(
    async (service) => {
      service.register(ingestRoute);
      service.register(otlpRoute);
      service.register(readRoutes);
      service.register(accountRoutes);
      service.register(resourceRoutes);
      service.register(memberRoutes);
      service.register(healthRoutes);
      service.register(teamRoutes);
    },
    { prefix: pathPrefix },
  );
  app.register(controlPlaneRoutes);
  if (options.console !== false) app.register(consoleRoutes, { pathPrefix });
  return app;
}
