import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * Web apps that speak only what the logging service's own SDKs send (docs/protocol.md), each
 * reacting to a gzipped body the way real servers do:
 * - `plain-json`: parses every body as JSON, as a small JSON app does, so gzip is a 400;
 * - `rfc7694`: refuses any content coding with 415 and `Accept-Encoding: identity`;
 * - `gzip`: inflates gzip (the reference receiver's behaviour).
 */
export type Dialect = 'plain-json' | 'rfc7694' | 'gzip';

export interface CapturedRequest {
  path: string;
  gzipped: boolean;
  idempotencyKey: string | undefined;
  actingUser: string | undefined;
  status: number;
  /** The parsed body, when the server took it. */
  body: { logs: Record<string, any>[] } & Record<string, unknown>;
}

const SDK_FIELDS = ['level', 'message', 'logger', 'ts', 'extra'] as const;
const EXTRA_FIELDS = [
  'logger',
  'module',
  'function',
  'line',
  'path',
  'extra',
  'stack_info',
  'exception',
] as const;

/** Why a record is not shaped as the SDKs send it, or `undefined` when it is. */
export function sdkShapeProblem(log: Record<string, unknown>): string | undefined {
  for (const field of SDK_FIELDS) if (!(field in log)) return `missing ${field}`;
  if (typeof log.level !== 'string' || log.level !== log.level.toLowerCase()) return 'level';
  if (log.extra === null || typeof log.extra !== 'object') return 'extra is not an object';
  for (const field of EXTRA_FIELDS) if (!(field in log.extra)) return `missing extra.${field}`;
  if ('attributes' in log) return 'attributes sent besides extra';
  return undefined;
}

export async function startDialectServer(dialect: Dialect) {
  const requests: CapturedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const encoding = req.headers['content-encoding'];
      const gzipped = encoding === 'gzip';
      const header = (name: string) => req.headers[name] as string | undefined;
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
        return status;
      };
      let parsed: CapturedRequest['body'] | undefined;
      let status: number;
      if (dialect === 'rfc7694' && encoding !== undefined && encoding !== 'identity') {
        status = answer(
          415,
          { detail: 'unsupported content encoding' },
          {
            'accept-encoding': 'identity',
          },
        );
      } else {
        try {
          const text = (gzipped && dialect === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
          parsed = JSON.parse(text);
          status = answer(
            dialect === 'gzip' ? 202 : 200,
            dialect === 'gzip'
              ? { accepted: parsed?.logs.length, rejected: 0, request_id: 'r', errors: [] }
              : { ok: true },
          );
        } catch {
          status = answer(400, { detail: 'invalid json' });
        }
      }
      requests.push({
        path: req.url ?? '',
        gzipped,
        idempotencyKey: header('idempotency-key'),
        actingUser: header('x-user-username'),
        status,
        body: parsed ?? { logs: [] },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
