#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { buildReceiver } from './build-receiver.js';
import { ReceiverOptionError } from './errors.js';
import { normalizePathPrefix } from './http/path-prefix.js';
import type { ReceiverLimits } from './receiver-options.js';
import { loadSeedFile } from './seed.js';

const USAGE = `Usage: reslog-receiver [options]

  --host HOST              listen address [RESLOG_RECEIVER_HOST] (default 127.0.0.1)
  --port PORT              port, 0 picks a free one [RESLOG_RECEIVER_PORT] (default 8765)
  --db PATH                SQLite file [RESLOG_RECEIVER_DB] (default in memory)
  --seed PATH              seed file [RESLOG_SEED]
  --admin-token TOKEN      control plane token [RESLOG_ADMIN_TOKEN] (default random, printed once)
  --log-level LEVEL        pino level or silent [RESLOG_RECEIVER_LOG_LEVEL] (default info)
  --max-body-bytes N       [RESLOG_RECEIVER_MAX_BODY_BYTES]
  --max-records N          [RESLOG_RECEIVER_MAX_RECORDS]
  --max-message-bytes N    [RESLOG_RECEIVER_MAX_MESSAGE_BYTES]
  --max-attributes-bytes N [RESLOG_RECEIVER_MAX_ATTRIBUTES_BYTES]
  --max-depth N            [RESLOG_RECEIVER_MAX_DEPTH]
  --rate-limit N           requests/s per key, 0 = off [RESLOG_RECEIVER_RATE_LIMIT] (default off)
  --rate-burst N           [RESLOG_RECEIVER_RATE_BURST]
  --max-in-flight N        requests processed at once [RESLOG_RECEIVER_MAX_IN_FLIGHT]
  --max-queued-requests N  requests waiting for those, more get 503 [RESLOG_RECEIVER_MAX_QUEUED_REQUESTS]
  --headers-timeout-millis N  time to send all headers, at most 10000 [RESLOG_RECEIVER_HEADERS_TIMEOUT_MILLIS]
  --request-timeout-millis N  time to send the whole request, at most 30000 [RESLOG_RECEIVER_REQUEST_TIMEOUT_MILLIS]
  --alert-window-seconds N log alerts coalescing window [RESLOG_RECEIVER_ALERT_WINDOW_SECONDS] (default 60)
  --health-failures-until-down N  failed probes that make a resource down [RESLOG_RECEIVER_HEALTH_FAILURES_UNTIL_DOWN] (default 3)
  --path-prefix PATH       serve the data plane and /api under PATH, e.g. /DevTools [RESLOG_PATH_PREFIX] (default none)
  --no-console             do not serve the web console at / [RESLOG_RECEIVER_CONSOLE=false] (default served)
`;

const LIMIT_FLAGS: Record<string, [keyof ReceiverLimits, string]> = {
  'max-body-bytes': ['maxBodyBytes', 'RESLOG_RECEIVER_MAX_BODY_BYTES'],
  'max-records': ['maxRecordsPerRequest', 'RESLOG_RECEIVER_MAX_RECORDS'],
  'max-message-bytes': ['maxMessageBytes', 'RESLOG_RECEIVER_MAX_MESSAGE_BYTES'],
  'max-attributes-bytes': ['maxAttributesBytes', 'RESLOG_RECEIVER_MAX_ATTRIBUTES_BYTES'],
  'max-depth': ['maxDepth', 'RESLOG_RECEIVER_MAX_DEPTH'],
  'rate-limit': ['rateLimitPerSecond', 'RESLOG_RECEIVER_RATE_LIMIT'],
  'rate-burst': ['rateLimitBurst', 'RESLOG_RECEIVER_RATE_BURST'],
  'max-in-flight': ['maxInFlight', 'RESLOG_RECEIVER_MAX_IN_FLIGHT'],
  'max-queued-requests': ['maxQueuedRequests', 'RESLOG_RECEIVER_MAX_QUEUED_REQUESTS'],
  'headers-timeout-millis': ['headersTimeoutMillis', 'RESLOG_RECEIVER_HEADERS_TIMEOUT_MILLIS'],
  'request-timeout-millis': ['requestTimeoutMillis', 'RESLOG_RECEIVER_REQUEST_TIMEOUT_MILLIS'],
};

function integer(name: string, text: string): number {
  if (!/^\d+$/.test(text))
    throw new ReceiverOptionError(`--${name} must be a whole number, got "${text}"`);
  return Number(text);
}

async function main(): Promise<void> {
  const string = { type: 'string' } as const;
  const { values } = parseArgs({
    options: {
      host: string,
      port: string,
      db: string,
      seed: string,
      'admin-token': string,
      'log-level': string,
      'alert-window-seconds': string,
      'health-failures-until-down': string,
      'path-prefix': string,
      console: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      ...Object.fromEntries(Object.keys(LIMIT_FLAGS).map((flag) => [flag, string])),
    },
    strict: true,
    allowNegative: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const env = process.env;
  const option = (flag: string, envName: string) =>
    (values as Record<string, string | undefined>)[flag] ?? (env[envName] || undefined);
  const host = option('host', 'RESLOG_RECEIVER_HOST') ?? '127.0.0.1';
  const port = integer('port', option('port', 'RESLOG_RECEIVER_PORT') ?? '8765');
  const db = option('db', 'RESLOG_RECEIVER_DB') ?? ':memory:';
  const seedPath = option('seed', 'RESLOG_SEED');
  const givenToken = option('admin-token', 'RESLOG_ADMIN_TOKEN');
  const logLevel = option('log-level', 'RESLOG_RECEIVER_LOG_LEVEL') ?? 'info';
  const limits: Partial<ReceiverLimits> = {};
  for (const [flag, [name, envName]] of Object.entries(LIMIT_FLAGS)) {
    const text = option(flag, envName);
    if (text !== undefined) limits[name] = integer(flag, text);
  }

  const windowText = option('alert-window-seconds', 'RESLOG_RECEIVER_ALERT_WINDOW_SECONDS');
  const failuresText = option(
    'health-failures-until-down',
    'RESLOG_RECEIVER_HEALTH_FAILURES_UNTIL_DOWN',
  );

  const pathPrefix = normalizePathPrefix(
    option('path-prefix', 'RESLOG_PATH_PREFIX'),
    '--path-prefix (RESLOG_PATH_PREFIX)',
  );

  const consoleEnv = env.RESLOG_RECEIVER_CONSOLE?.trim().toLowerCase();
  if (
    consoleEnv !== undefined &&
    consoleEnv !== '' &&
    consoleEnv !== 'true' &&
    consoleEnv !== 'false'
  ) {
    throw new ReceiverOptionError(
      `RESLOG_RECEIVER_CONSOLE must be true or false, got "${env.RESLOG_RECEIVER_CONSOLE}"`,
    );
  }
  const serveConsole = values.console ?? consoleEnv !== 'false';

  const seed = seedPath === undefined ? undefined : await loadSeedFile(seedPath);
  const app = buildReceiver({
    db,
    console: serveConsole,
    seed,
    limits,
    ...(windowText === undefined
      ? {}
      : {
          notifications: {
            coalesceWindowMillis: integer('alert-window-seconds', windowText) * 1000,
          },
        }),
    ...(failuresText === undefined
      ? {}
      : {
          healthChecks: {
            failuresUntilDown: integer('health-failures-until-down', failuresText),
          },
        }),
    ...(givenToken ? { adminToken: givenToken } : {}),
    pathPrefix,
    // Logs go to stderr: stdout carries only the ready line, which scripts wait for.
    logger: { level: logLevel, stream: process.stderr },
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      console.error(`reslog-receiver: second ${signal}, exiting now`);
      process.exit(1);
    }
    closing = true;
    // Stop accepting, let in-flight requests finish, then close the database (onClose).
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('reslog-receiver: shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ host, port });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  if (!givenToken) console.error(`reslog-receiver admin token: ${app.receiver.adminToken}`);
  // The ready line stays the root URL (the control plane lives there); the service's base
  // URL, with the prefix, goes to stderr.
  if (pathPrefix !== '') {
    console.error(`reslog-receiver serves the data plane and /api under ${pathPrefix}`);
  }
  // The console is always at the root, with or without a prefix (docs/receiver.md, "Web console").
  if (serveConsole) console.error(`reslog-receiver web console: http://${urlHost}:${actualPort}/`);
  process.stdout.write(`reslog-receiver listening on http://${urlHost}:${actualPort}\n`);
}

main().catch((error: unknown) => {
  console.error(`reslog-receiver: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
