/** A run of serialized records that fits one request body, with each record's UTF-8 size. */
export interface Batch {
  readonly records: readonly string[];
  readonly sizes: readonly number[];
}

/**
 * Splits serialized records, in order, into batches whose body (envelope + records + commas)
 * stays within `maxBodyBytes` bytes of UTF-8. A record that cannot fit even alone is handed to
 * `onOversize` instead. The measured sizes travel with the batch, so the body is written
 * straight into one buffer later (body-encoder.ts) without measuring twice.
 */
export function splitIntoBatches(
  records: readonly string[],
  envelopeBytes: number,
  maxBodyBytes: number,
  onOversize: (record: string) => void,
): Batch[] {
  const budget = maxBodyBytes - envelopeBytes;
  const batches: Batch[] = [];
  let current: string[] = [];
  let sizes: number[] = [];
  let used = 0;
  for (const record of records) {
    const size = Buffer.byteLength(record);
    if (size > budget) {
      onOversize(record);
      continue;
    }
    const separator = current.length > 0 ? 1 : 0;
    if (used + separator + size > budget) {
      batches.push({ records: current, sizes });
      current = [record];
      sizes = [size];
      used = size;
    } else {
      current.push(record);
      sizes.push(size);
      used += separator + size;
    }
  }
  if (current.length > 0) batches.push({ records: current, sizes });
  return batches;
}

/** Records `start` (inclusive) to `end` (exclusive) of a batch, as a batch. */
export function sliceBatch(batch: Batch, start: number, end: number): Batch {
  return { records: batch.records.slice(start, end), sizes: batch.sizes.slice(start, end) };
}

/** Bytes the envelope adds to a body: its prefix plus the closing `]}`. */
export function envelopeBytes(prefix: Buffer): number {
  return prefix.length + 2;
}
