import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { normalizePathPrefix } from './http/path-prefix.js';
import {
  normalizeHealthCheckOptions,
  normalizeLimits,
  normalizeNotificationOptions,
  type ReceiverOptions,
} from './receiver-options.js';
import { receiverPlugin } from './receiver-plugin.js';
import { validateSeed } from './seed.js';

/** Log paths that could carry secrets; pino replaces them with `[Redacted]`. */
const REDACT = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
];

/**
 * The reference receiver (docs/receiver.md) as a fastify instance that is not listening yet:
 * `await app.listen({ port: 0, host: '127.0.0.1' })` or `app.inject(...)`. It is
 * {@link receiverPlugin} in an instance of its own, with the server options its limits call
 * for and a graceful close. Bad options or a bad seed throw here; the database opens when the
 * app loads its plugins (`await app.ready()`, `listen` or the first `inject`), and
 * `app.close()` closes it.
 */
export function buildReceiver(options: ReceiverOptions = {}): FastifyInstance {
  const { logger: loggerOption, ...receiverOptions } = options;
  // Checked now, so that a bad option or seed throws from this call; the plugin uses them.
  const limits = normalizeLimits(options.limits);
  if (options.seed !== undefined) validateSeed(options.seed);
  normalizeNotificationOptions(options.notifications);
  normalizeHealthCheckOptions(options.healthChecks);
  normalizePathPrefix(options.pathPrefix);

  const logger =
    loggerOption === undefined || loggerOption === false
      ? false
      : { ...(loggerOption === true ? {} : loggerOption), redact: REDACT };
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

  app.register(receiverPlugin, receiverOptions);
  return app;
}
