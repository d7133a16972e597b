import { Pool, errors as undiciErrors } from 'undici';
import type { ErrorBody, Unchecked } from '../contract/ingest-answer.js';
import { HttpError, NetworkError, type ReslogError, TimeoutError } from '../errors.js';
import type { ExportResponse, Transport } from './export-response.js';
import { isRetryableStatus, parseRetryAfter } from './retry-rules.js';

export interface HttpTransportOptions {
  /** Origin plus optional path prefix, without trailing slash. */
  readonly baseUrl: string;
  /** Time limit of one attempt, in milliseconds. */
  readonly timeoutMillis: number;
  /** Connections kept to the origin. */
  readonly connections: number;
  /** Values to scrub from any text that ends up in an error (the API key). */
  readonly secrets: readonly string[];
}

/** Response bodies are read up to this size; acknowledgements and errors are far smaller. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * One undici keep-alive `Pool` per exporter. Each attempt is bounded by `timeoutMillis` and by
 * the caller's deadline, whichever is sooner; the response body is read up to
 * {@link MAX_RESPONSE_BYTES}. Never throws: every outcome is an {@link ExportResponse}.
 */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  const base = new URL(options.baseUrl);
  const pool = new Pool(base.origin, {
    connections: options.connections,
    keepAliveTimeout: 30_000,
    connectTimeout: options.timeoutMillis,
  });

  return {
    async send(request, deadline) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        return {
          status: 'retryable',
          statusCode: 0,
          error: new TimeoutError('export time budget used up'),
        };
      }
      const attemptMillis = Math.min(options.timeoutMillis, remaining);
      const signal = AbortSignal.timeout(attemptMillis);
      try {
        const response = await pool.request({
          method: request.method,
          path: request.path,
          headers: request.headers,
          body: request.body ?? null,
          headersTimeout: attemptMillis,
          bodyTimeout: attemptMillis,
          signal,
        });
        const text = await readCapped(response.body);
        return classify(response.statusCode, response.headers, text, options.secrets);
      } catch (error) {
        return {
          status: 'retryable',
          statusCode: 0,
          error: toNetworkError(error, attemptMillis, options.secrets),
        };
      }
    },
    async close() {
      await pool.close().catch(() => pool.destroy());
    },
  };
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) {
      body.destroy();
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function classify(
  statusCode: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  secrets: readonly string[],
): ExportResponse {
  const json = parseJson(text);
  if (statusCode >= 200 && statusCode < 300) return { status: 'success', statusCode, json };
  const error = httpError(statusCode, json, text, secrets);
  if (isRetryableStatus(statusCode)) {
    const retryAfterMillis = parseRetryAfter(headers['retry-after'], Date.now());
    return retryAfterMillis === undefined
      ? { status: 'retryable', statusCode, error }
      : { status: 'retryable', statusCode, error, retryAfterMillis };
  }
  return { status: 'failure', statusCode, error };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Builds an HttpError from the service's error body (`ErrorBody`: `{"error": {"code", "message"}}`). */
function httpError(
  statusCode: number,
  json: unknown,
  text: string,
  secrets: readonly string[],
): HttpError {
  // Any JSON may arrive: reading a field of a string or number gives `undefined`, as wanted.
  const body = (json as Unchecked<ErrorBody> | undefined)?.error as
    | Unchecked<ErrorBody['error']>
    | undefined;
  const serverCode = typeof body?.code === 'string' ? body.code : undefined;
  const detail = typeof body?.message === 'string' ? body.message : text.slice(0, 200);
  const message = `HTTP ${statusCode}${serverCode ? ` ${serverCode}` : ''}${detail ? `: ${detail}` : ''}`;
  return new HttpError(statusCode, serverCode, redact(message, secrets));
}

function toNetworkError(
  error: unknown,
  attemptMillis: number,
  secrets: readonly string[],
): ReslogError {
  const err = error as { name?: string; code?: string; message?: string };
  if (
    err?.name === 'TimeoutError' ||
    err?.name === 'AbortError' ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  ) {
    return new TimeoutError(`no answer within ${attemptMillis} ms`);
  }
  const code = err?.code ? ` (${err.code})` : '';
  return new NetworkError(redact(`${err?.message ?? String(error)}${code}`, secrets));
}

/** Replaces every secret in `text`; reslog applies it to all text that comes from outside. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('[REDACTED]');
  }
  return out;
}
