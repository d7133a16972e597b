import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import type { QueuedBatch } from './queued-batch.js';

const gzipRaw = promisify(gzipCallback);

/**
 * zlib level 3, not its default 6: on the service records of bench scenario 7, levels 1–3 cost
 * ≈ 0.43 µs per record of CPU (threadpool CPU the app's process pays) and level 6 1.28 µs,
 * for 14.3 instead of 10.5 bytes per record out of 352 (docs/performance.md, "Compression
 * level"). Levels 1–3 are zlib's fast strategy; 3 compressed best of them for the same CPU.
 */
export const GZIP_OPTIONS = { level: 3 } as const;
const gunzip = promisify(gunzipCallback);

/**
 * gzip for a body that waits in the backlog. zlib hands back a view into its output chunk
 * (16 KiB or more) while a batch's gzip is often a few KiB, and a queued view keeps the whole
 * chunk alive: measured 6.5 MiB of ArrayBuffers for 1 MiB of queued gzip after a 30 s outage.
 * A body much smaller than its backing memory is copied into its own exact allocation.
 */
export async function gzip(json: Buffer): Promise<Buffer> {
  const zipped = await gzipRaw(json, GZIP_OPTIONS);
  if (zipped.buffer.byteLength <= zipped.length + (zipped.length >> 2)) return zipped;
  const exact = Buffer.allocUnsafeSlow(zipped.length);
  zipped.copy(exact);
  return exact;
}

/** The batch's body as plain JSON (its `body` must be loaded). */
export async function plainBody(batch: QueuedBatch): Promise<Buffer> {
  const body = batch.body as Buffer;
  return batch.gzipped ? gunzip(body) : body;
}

/**
 * Splits a batch the service answered 413 for into two halves of its records, each a new
 * batch with its own `Idempotency-Key` (the halves are different bodies), gzipped again when
 * the batch was. The records are cut out of the plain body by their recorded sizes.
 */
export async function splitInHalves(
  batch: QueuedBatch,
): Promise<[QueuedBatch, QueuedBatch] | undefined> {
  const count = batch.sizes.length;
  if (count < 2) return undefined;
  const plain = await plainBody(batch);
  const half = Math.ceil(count / 2);
  const envelope = plain.subarray(0, batch.envelopeBytes);
  const offsets: number[] = [];
  let offset = batch.envelopeBytes;
  for (const size of batch.sizes) {
    offsets.push(offset);
    offset += size + 1; // the comma after each record but the last
  }
  const part = async (start: number, end: number): Promise<QueuedBatch> => {
    const first = offsets[start] as number;
    const last = (offsets[end - 1] as number) + (batch.sizes[end - 1] as number);
    const json = Buffer.concat([envelope, plain.subarray(first, last), Buffer.from(']}')]);
    return {
      id: randomUUID(),
      target: batch.target,
      body: batch.gzipped ? await gzip(json) : json,
      gzipped: batch.gzipped,
      envelopeBytes: batch.envelopeBytes,
      sizes: batch.sizes.slice(start, end),
      enqueuedAt: batch.enqueuedAt,
    };
  };
  return [await part(0, half), await part(half, count)];
}
