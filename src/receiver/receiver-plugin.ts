import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
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

/** Options of {@link receiverPlugin}: the receiver's own, without the server's logger. */
export type ReceiverPluginOptions = Omit<ReceiverOptions, 'logger'>;

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

/**
 * Everything the routes share (`app.receiver`), built inside the fastify instance that serves
 * them, so background work logs through that instance's logger. Throws a
 * `ReceiverOptionError` or `SeedError` for a bad option or seed.
 */
function createReceiverContext(app: FastifyInstance, options: ReceiverPluginOptions) {
  const limits = normalizeLimits(options.limits);
  const clock = options.clock ?? Date.now;
  const seed = options.seed === undefined ? undefined : validateSeed(options.seed);
  const notificationOptions = normalizeNotificationOptions(options.notifications);
  const healthCheckOptions = normalizeHealthCheckOptions(options.healthChecks);
  const store = createStore(options.db ?? ':memory:', () => new Date(clock()).toISOString());
  const webhooks = createWebhookWorker({
    store,
    clock,
    retryDelaysMillis: notificationOptions.webhookRetryDelaysMillis,
    timeoutMillis: notificationOptions.webhookTimeoutMillis,
    pollMillis: notificationOptions.pollMillis,
    log: app.log,
  });
  const monitor = createMonitor({
    store,
    clock,
    coalesceWindowMillis: notificationOptions.coalesceWindowMillis,
    deliveryQueued: () => webhooks.kick(),
    onError: (error) => app.log.warn({ err: error }, 'log alert evaluation failed'),
  });
  const healthChecker = createHealthChecker({
    store,
    monitor,
    clock,
    failuresUntilDown: healthCheckOptions.failuresUntilDown,
    pollMillis: healthCheckOptions.pollMillis,
    log: app.log,
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
  return context;
}

/**
 * The reference receiver (docs/receiver.md) as a fastify plugin: its store, background work,
 * error handling, plugins and routes, in the instance it is registered in. `buildReceiver()`
 * is this plugin in a fastify instance of its own, with the server options the limits call
 * for (body limit, timeouts) and a graceful close; registered elsewhere, the host app owns
 * those. The plugin sets the error and not-found handlers of the instance it is registered in
 * (it is not encapsulated, so `app.receiver` is visible to the host): give it a scope of its
 * own when the host has handlers of its own.
 */
async function receiver(app: FastifyInstance, options: ReceiverPluginOptions) {
  const pathPrefix = normalizePathPrefix(options.pathPrefix);
  const context = createReceiverContext(app, options);

  installErrorHandlers(app);
  await app.register(openApi, { version: packageVersion() });
  await app.register(storagePlugin, context);
  await app.register(observabilityPlugin);
  await app.register(limitsPlugin);
  await app.register(authPlugin);
  await app.register(faultPlugin);
  await app.register(monitorPlugin);
  await app.register(probeRoutes);
  await app.register(openApiRoute);
  // The service (data plane and management API) lives under the path prefix, if any; the
  // control plane and /metrics stay at the root (docs/receiver.md, "Path prefix").
  await app.register(
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
  await app.register(controlPlaneRoutes);
  if (options.console !== false) await app.register(consoleRoutes, { pathPrefix });
}

export const receiverPlugin = fp(receiver, { name: 'reslog-receiver', fastify: '5.x' });
