/** A run of serialized records that fits one request body. */
export interface Batch {
  readonly records: string[];
}

/**
 * Splits serialized records, in order, into batches whose body (envelope + records + commas)
 * stays within `maxBodyBytes` bytes of UTF-8. A record that cannot fit even alone is handed to
 * `onOversize` instead.
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
  let used = 0;
  for (const record of records) {
    // One-byte (Latin-1 or ASCII) strings are measured exactly by length when they are ASCII;
    // byteLength is exact for everything and cheap next to building the record.
    const size = Buffer.byteLength(record);
    if (size > budget) {
      onOversize(record);
      continue;
    }
    const separator = current.length > 0 ? 1 : 0;
    if (used + separator + size > budget) {
      batches.push({ records: current });
      current = [record];
      used = size;
    } else {
      current.push(record);
      used += separator + size;
    }
  }
  if (current.length > 0) batches.push({ records: current });
  return batches;
}

/** Bytes the envelope adds to a body: its prefix plus the closing `]}`. */
export function envelopeBytes(prefix: string): number {
  return Buffer.byteLength(prefix) + 2;
}
