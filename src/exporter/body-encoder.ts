import type { Batch } from './batch-splitter.js';

const COMMA = 0x2c;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Writes envelope, records and separators straight into one buffer of the exact size.
 * Joining the strings first and encoding the result copies the whole body twice more (the
 * join, then flattening and encoding the concatenation); this was a tenth of the exporter's
 * CPU in the profile (docs/performance.md). `allocate` gives the memory, e.g. a pooled
 * buffer (body-buffers.ts).
 */
export function encodeBody(
  envelope: Buffer,
  batch: Batch,
  allocate: (size: number) => Buffer = Buffer.allocUnsafe,
): Buffer {
  const { records, sizes } = batch;
  let total = envelope.length + 2 + Math.max(0, records.length - 1);
  for (const size of sizes) total += size;
  const body = allocate(total);
  let offset = envelope.copy(body, 0);
  for (let i = 0; i < records.length; i++) {
    if (i > 0) body[offset++] = COMMA;
    offset += body.write(records[i] as string, offset, sizes[i] as number, 'utf8');
  }
  body[offset++] = CLOSE_ARRAY;
  body[offset++] = CLOSE_OBJECT;
  // The memory is not zeroed (and may be a reused buffer): a size that did not match what
  // was written would send stale bytes, so it is an error instead.
  if (offset !== total) throw new Error(`body encoding wrote ${offset} of ${total} bytes`);
  return body;
}
