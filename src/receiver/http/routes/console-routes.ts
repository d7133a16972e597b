import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { receiverError } from '../../errors.js';

/**
 * What the console's answers may load (docs/receiver.md, "Web console"): only its own script,
 * stylesheet and API; no inline script or style, so a log message that contains markup can
 * never run even if it reached the DOM as HTML.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Where `scripts/build-console.ts` writes the assets: src/receiver/ or dist/receiver/. */
const DEFAULT_ASSETS = new URL('../../console-assets/', import.meta.url);

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

export interface ConsoleRouteOptions {
  /** The service's path prefix, handed to the page so its API calls go under it. */
  pathPrefix: string;
  /** Folder of index.html, console.js and console.css. @default src|dist/receiver/console-assets/ */
  assetsUrl?: URL;
}

function asset(body: Buffer, type: string): Asset {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, type, etag };
}

/** The three assets, read once; `undefined` when the folder or a file is missing. */
function loadAssets(folder: URL, pathPrefix: string): Map<string, Asset> | undefined {
  try {
    const read = (name: string) => readFileSync(new URL(name, folder));
    // The prefix matches a strict pattern (http/path-prefix.ts), so it is safe in an attribute.
    const html = read('index.html')
      .toString('utf8')
      .replace(
        'name="reslog-api-base" content=""',
        `name="reslog-api-base" content="${pathPrefix}"`,
      );
    return new Map([
      ['/', asset(Buffer.from(html), 'text/html; charset=utf-8')],
      ['/console/console.js', asset(read('console.js'), 'text/javascript; charset=utf-8')],
      ['/console/console.css', asset(read('console.css'), 'text/css; charset=utf-8')],
    ]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The web console at `/` (docs/receiver.md, "Web console"): a prebuilt page, script and
 * stylesheet held in memory (a few KB), each with a strict Content-Security-Policy and an
 * ETag. Without built assets `/` answers 503 `console_unavailable`.
 */
export async function consoleRoutes(app: FastifyInstance, options: ConsoleRouteOptions) {
  const assets = loadAssets(options.assetsUrl ?? DEFAULT_ASSETS, options.pathPrefix);

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', CONSOLE_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
  });

  const serve = (path: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const found = assets?.get(path);
    if (!found) throw receiverError('console_unavailable');
    // Fixed names, so every load revalidates; an unchanged asset costs a 304.
    reply.header('cache-control', 'no-cache').header('etag', found.etag);
    if (request.headers['if-none-match'] === found.etag) return reply.code(304).send();
    return reply.type(found.type).send(found.body);
  };

  for (const path of ['/', '/console/console.js', '/console/console.css']) {
    app.get(path, { schema: { hide: true } }, serve(path));
  }
}
