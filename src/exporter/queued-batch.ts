import type { Owner } from '../config/owner.js';

/** Where a queued batch goes: everything needed to send it, without the exporter's config. */
export interface QueuedTarget {
  /** `<username>/<uuid>` or `team/<team>/<uuid>`: the key of per-target stats and queues. */
  readonly key: string;
  readonly owner: Owner;
  readonly uuid: string;
  /** Ingest path, including the base URL's prefix. */
  readonly path: string;
}

/**
 * One request body waiting in a target's backlog (docs/exporter.md, "Delivery"): serialized,
 * maybe gzipped, with what is needed to resend it uncompressed or to split it after a 413.
 */
export interface QueuedBatch {
  /** Its `Idempotency-Key`, the same on every attempt, and its id in the spool. */
  readonly id: string;
  readonly target: QueuedTarget;
  /**
   * The body as it will be sent (gzip when `gzipped`), or `undefined` while it is only on disk
   * (the spool reads it back when its turn comes).
   */
  body: Buffer | undefined;
  gzipped: boolean;
  /** Bytes of the envelope before the first record in the uncompressed body (`…"logs":[`). */
  readonly envelopeBytes: number;
  /** UTF-8 size of each record in the uncompressed body, in order; its length is the count. */
  readonly sizes: readonly number[];
  /** When `export()` accepted it, epoch milliseconds. */
  readonly enqueuedAt: number;
}
