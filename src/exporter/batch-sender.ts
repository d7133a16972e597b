import type {
  IngestAcknowledgement,
  IngestRecordError,
  Unchecked,
} from '../contract/ingest-answer.js';
import { HttpError, type RecordError, RejectedRecordsError, type ReslogError } from '../errors.js';
import type { ExportResponse, Transport } from '../transport/export-response.js';
import { redact } from '../transport/http-transport.js';
import type { BodyBuffers } from './body-buffers.js';
import type { CompressionPolicy } from './compression-policy.js';
import type { ExportStats } from './export-stats.js';
import type { QueuedBatch } from './queued-batch.js';
import { plainBody } from './queued-body.js';
import { refusalHint } from './refusal-hints.js';

/** What one attempt at a batch came to, for the delivery loop to act on. */
export type SendResult =
  | {
      readonly kind: 'delivered';
      readonly statusCode: number;
      readonly accepted: number;
      /** Records the service reported as rejected in its 202, with the error to report. */
      readonly rejected: number;
      readonly rejectError?: RejectedRecordsError;
    }
  | {
      readonly kind: 'retry';
      readonly statusCode: number;
      readonly error: ReslogError;
      readonly retryAfterMillis?: number;
    }
  | { readonly kind: 'too_large'; readonly error: ReslogError }
  | { readonly kind: 'refused'; readonly statusCode: number; readonly error: ReslogError };

export interface BatchSenderOptions {
  /** A single-attempt transport: the delivery loop decides about retries. */
  readonly transport: Transport;
  readonly compression: CompressionPolicy;
  /** Every header but `Content-Encoding` and `Idempotency-Key`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly stats: ExportStats;
  /** Scrubbed from the service's error messages (the API key). */
  readonly secrets: readonly string[];
  /** Where plain bodies go back once the service read them (see BodyBuffers.release). */
  readonly bodies: BodyBuffers;
  /** The batch's body was replaced (it was resent uncompressed); `previous` is the old one. */
  readonly onResized: (batch: QueuedBatch, previous: Buffer | undefined) => void;
}

export type BatchSender = (batch: QueuedBatch) => Promise<SendResult>;

/**
 * One attempt at a queued batch (its body loaded), with its `Idempotency-Key`. With
 * compression `'auto'`, a gzipped body the target refuses (415, or 400) is sent again at once
 * as plain JSON under the same key, and stays plain from then on (docs/exporter.md,
 * "Compression"); a target that takes only plain JSON gets its queued gzip bodies inflated.
 */
export function createBatchSender(options: BatchSenderOptions): BatchSender {
  const { transport, compression, stats } = options;
  const gzipHeaders = { ...options.headers, 'content-encoding': 'gzip' };

  const attempt = (batch: QueuedBatch): Promise<ExportResponse> =>
    transport.send(
      {
        method: 'POST',
        path: batch.target.path,
        headers: {
          ...(batch.gzipped ? gzipHeaders : options.headers),
          'idempotency-key': batch.id,
        },
        body: batch.body as Buffer,
      },
      Number.POSITIVE_INFINITY,
    );

  const makePlain = async (batch: QueuedBatch) => {
    const previous = batch.body;
    batch.body = await plainBody(batch);
    batch.gzipped = false;
    options.onResized(batch, previous);
  };

  return async (batch) => {
    const key = batch.target.key;
    if (batch.gzipped && !compression.gzipFor(key, Date.now())) await makePlain(batch);
    stats.encoding(key, batch.gzipped);
    let response = await attempt(batch);
    if (
      batch.gzipped &&
      response.status === 'failure' &&
      compression.refusedGzip(response.statusCode)
    ) {
      // Nothing was stored: the same batch goes again as plain JSON, under the same key.
      stats.encodingFallback();
      await makePlain(batch);
      response = await attempt(batch);
      compression.plainAnswered(key, response.statusCode, Date.now());
      stats.encoding(key, compression.gzipFor(key, Date.now()));
    }
    switch (response.status) {
      case 'success': {
        // Reused only after a 2xx: the service read all of it.
        if (!batch.gzipped && batch.body) options.bodies.release(batch.body);
        return acknowledged(batch.sizes.length, response.statusCode, response.json);
      }
      case 'retryable':
        return response.retryAfterMillis === undefined
          ? { kind: 'retry', statusCode: response.statusCode, error: response.error }
          : {
              kind: 'retry',
              statusCode: response.statusCode,
              error: response.error,
              retryAfterMillis: response.retryAfterMillis,
            };
      case 'failure': {
        if (response.statusCode === 413) return { kind: 'too_large', error: response.error };
        const serverCode =
          response.error instanceof HttpError ? response.error.serverCode : undefined;
        const hint = refusalHint(batch.target, response.statusCode, serverCode);
        return {
          kind: 'refused',
          statusCode: response.statusCode,
          error:
            hint === undefined
              ? response.error
              : new HttpError(
                  response.statusCode,
                  serverCode,
                  `${response.error.message} (${hint})`,
                ),
        };
      }
    }
  };

  /** Reads `{accepted, rejected, errors}`; an unreadable 2xx body means all were accepted. */
  function acknowledged(sent: number, statusCode: number, json: unknown): SendResult {
    const ack = (json ?? {}) as Unchecked<IngestAcknowledgement>;
    const rejected = clampCount(ack.rejected, sent);
    const accepted =
      typeof ack.accepted === 'number'
        ? clampCount(ack.accepted, sent - rejected)
        : sent - rejected;
    if (rejected === 0) return { kind: 'delivered', statusCode, accepted, rejected };
    const errors = Array.isArray(ack.errors)
      ? ack.errors.map((entry) => recordErrorOf(entry, options.secrets))
      : [];
    const rejectError = new RejectedRecordsError(statusCode, rejected, sent, errors);
    return { kind: 'delivered', statusCode, accepted, rejected, rejectError };
  }
}

/** Keeps the fields of one per-record error that are what they claim to be. */
function recordErrorOf(value: unknown, secrets: readonly string[]): RecordError {
  const entry: Unchecked<IngestRecordError> =
    typeof value === 'object' && value !== null ? value : {};
  return {
    ...(Number.isInteger(entry.index) ? { index: entry.index as number } : {}),
    ...(typeof entry.code === 'string' ? { code: redact(entry.code, secrets) } : {}),
    ...(typeof entry.message === 'string' ? { message: redact(entry.message, secrets) } : {}),
  };
}

function clampCount(value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 0;
  return Math.max(0, Math.min(max, Math.floor(value)));
}
