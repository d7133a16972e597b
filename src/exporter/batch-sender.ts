import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Owner } from '../config/owner.js';
import { ErrorCodes, HttpError, ReslogError } from '../errors.js';
import type { ExportResponse, Transport } from '../transport/export-response.js';
import { redact } from '../transport/http-transport.js';
import { type Batch, sliceBatch } from './batch-splitter.js';
import { createBodyBuffers } from './body-buffers.js';
import { encodeBody } from './body-encoder.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import type { CompressionPolicy } from './compression-policy.js';
import type { ExportOutcome } from './export-outcome.js';
import type { ExportStats } from './export-stats.js';
import { refusalHint } from './refusal-hints.js';

const gzip = promisify(gzipCallback);

/** Where a batch goes. */
export interface BatchTarget {
  /** `<username>/<uuid>` or `team/<team>/<uuid>`, the key of per-target stats. */
  readonly key: string;
  readonly owner: Owner;
  readonly uuid: string;
  /** Ingest path, including the base URL's prefix. */
  readonly path: string;
  /** Body up to and including `"logs":[`, UTF-8. */
  readonly envelope: Buffer;
}

export interface BatchSenderOptions {
  readonly transport: Transport;
  readonly compression: CompressionPolicy;
  /** Every header but `Content-Encoding` and `Idempotency-Key`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly breaker: CircuitBreaker;
  readonly stats: ExportStats;
  /** Scrubbed from the service's error messages (the API key). */
  readonly secrets: readonly string[];
  /** Body buffers kept for reuse: the most requests in flight at once (`maxConcurrency`). */
  readonly pooledBodies: number;
  /** Told of each 401, 403 and 404 answer (the exporter warns once per target). */
  readonly onRefused?: (target: BatchTarget, statusCode: number, serverCode?: string) => void;
}

export type BatchSender = (
  target: BatchTarget,
  batch: Batch,
  deadline: number,
  outcome: ExportOutcome,
) => Promise<void>;

/**
 * Sends one batch and accounts for every record in it: acknowledged, rejected by the service,
 * too large, or out of retry budget. One `Idempotency-Key` per batch, the same on each retry
 * and on the uncompressed resend of a batch whose gzip the target refused; a 413 halves the
 * batch (each half gets its own key) down to single records.
 */
export function createBatchSender(options: BatchSenderOptions): BatchSender {
  const { transport, breaker, stats, compression } = options;
  const bodies = createBodyBuffers(options.pooledBodies);
  const plainHeaders = options.headers;
  const gzipHeaders = { ...options.headers, 'content-encoding': 'gzip' };

  /** One request of the batch, gzipped or not, with its own retries. */
  async function attempt(
    target: BatchTarget,
    batch: Batch,
    gzipped: boolean,
    idempotencyKey: string,
    deadline: number,
  ): Promise<ExportResponse> {
    const json = encodeBody(target.envelope, batch, bodies.acquire);
    let body = json;
    if (gzipped) {
      try {
        body = await gzip(json);
      } finally {
        bodies.release(json);
      }
    }
    const request = {
      method: 'POST' as const,
      path: target.path,
      headers: { ...(gzipped ? gzipHeaders : plainHeaders), 'idempotency-key': idempotencyKey },
      body,
    };
    const response = await transport.send(request, deadline);
    // Reused only after a 2xx: the service read all of it (see BodyBuffers.release).
    if (!gzipped && response.status === 'success') bodies.release(json);
    return response;
  }

  const send: BatchSender = async (target, batch, deadline, outcome) => {
    const count = batch.records.length;
    const paused = breaker.pausedFor(target.key, Date.now());
    if (paused > 0) {
      const error = new ReslogError(
        ErrorCodes.CIRCUIT_OPEN,
        `${target.key} is paused for ${Math.ceil(paused / 1000)} s after repeated permanent failures`,
      );
      outcome.drop('rejected', count, { target: target.key, error });
      return;
    }

    const gzipped = compression.gzipFor(target.key, Date.now());
    stats.encoding(target.key, gzipped);
    const idempotencyKey = randomUUID();
    let response = await attempt(target, batch, gzipped, idempotencyKey, deadline);
    if (gzipped && response.status === 'failure' && compression.refusedGzip(response.statusCode)) {
      // Nothing was stored: the same batch goes again as plain JSON, under the same key.
      stats.encodingFallback();
      response = await attempt(target, batch, false, idempotencyKey, deadline);
      compression.plainAnswered(target.key, response.statusCode, Date.now());
      stats.encoding(target.key, compression.gzipFor(target.key, Date.now()));
    }

    switch (response.status) {
      case 'success': {
        breaker.success(target.key);
        acknowledge(target.key, count, response.statusCode, response.json, outcome);
        return;
      }
      case 'failure': {
        if (response.statusCode === 413) {
          if (count > 1) {
            const half = Math.ceil(count / 2);
            await send(target, sliceBatch(batch, 0, half), deadline, outcome);
            await send(target, sliceBatch(batch, half, count), deadline, outcome);
          } else {
            outcome.drop('oversize', 1, {
              target: target.key,
              error: response.error,
              statusCode: 413,
            });
          }
          return;
        }
        breaker.permanentFailure(target.key, Date.now());
        const serverCode =
          response.error instanceof HttpError ? response.error.serverCode : undefined;
        options.onRefused?.(target, response.statusCode, serverCode);
        const hint = refusalHint(target, response.statusCode, serverCode);
        outcome.drop('rejected', count, {
          target: target.key,
          error:
            hint === undefined
              ? response.error
              : new HttpError(
                  response.statusCode,
                  serverCode,
                  `${response.error.message} (${hint})`,
                ),
          statusCode: response.statusCode,
        });
        return;
      }
      case 'retryable':
        outcome.drop('retry_budget', count, {
          target: target.key,
          error: response.error,
          statusCode: response.statusCode,
        });
        return;
    }
  };

  /** Reads `{accepted, rejected, errors}`; an unreadable 2xx body means all were accepted. */
  function acknowledge(
    target: string,
    sent: number,
    statusCode: number,
    json: unknown,
    outcome: ExportOutcome,
  ) {
    const ack = (json ?? {}) as { accepted?: unknown; rejected?: unknown; errors?: unknown };
    const rejected = clampCount(ack.rejected, sent);
    const accepted =
      typeof ack.accepted === 'number'
        ? clampCount(ack.accepted, sent - rejected)
        : sent - rejected;
    stats.exported(target, accepted, statusCode);
    if (rejected > 0) {
      const first = Array.isArray(ack.errors)
        ? (ack.errors[0] as { code?: unknown; message?: unknown })
        : undefined;
      const code = typeof first?.code === 'string' ? first.code : undefined;
      const detail =
        typeof first?.message === 'string' ? `: ${redact(first.message, options.secrets)}` : '';
      const error = new HttpError(
        statusCode,
        code,
        `service rejected ${rejected} of ${sent} records${detail}`,
      );
      outcome.drop('rejected', rejected, { target, error, statusCode });
    }
  }

  return send;
}

function clampCount(value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 0;
  return Math.max(0, Math.min(max, Math.floor(value)));
}
