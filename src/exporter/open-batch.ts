const COMMA = 0x2c;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
/** First size of a target's buffer; it doubles as records arrive, up to the batch's budget. */
const INITIAL_BYTES = 16 * 1024;

/** What {@link OpenBatch.append} did with a record. */
export type AppendResult = 'added' | 'full' | 'oversize';

/**
 * One target's batch while records arrive (docs/exporter.md, "The processor"): the serialized
 * records, comma-separated, in a buffer the batch keeps from one batch to the next. A record
 * is written into it as UTF-8 the moment it is emitted, so its string dies young and no record
 * object waits for the batch; closing copies the bytes once into the request body.
 */
export interface OpenBatch {
  /** Records in the batch. */
  readonly count: number;
  /**
   * Adds a serialized record: `full` when it would take the batch over `maxRecordsBytes` (close
   * the batch and append again), `oversize` when it cannot fit even an empty batch.
   */
  append(record: string): AppendResult;
  /**
   * The request body (`envelope`, the records, `]}`) in memory from `allocate`, with each
   * record's size; empties the batch for the next one.
   */
  close(
    envelope: Buffer,
    allocate: (size: number) => Buffer,
  ): { body: Buffer; sizes: number[] } | undefined;
  /** Bytes held by the batch's buffer (its capacity). */
  readonly capacity: number;
}

/** `maxRecordsBytes`: the body's budget for records and their commas (the envelope excluded). */
export function createOpenBatch(maxRecordsBytes: number): OpenBatch {
  let buffer = Buffer.allocUnsafeSlow(Math.min(INITIAL_BYTES, maxRecordsBytes));
  let used = 0;
  let sizes: number[] = [];

  /** Room for at least `bytes` more (within the budget, which `append` checked), doubling. */
  const reserve = (bytes: number): void => {
    if (used + bytes <= buffer.length) return;
    let capacity = buffer.length * 2;
    while (capacity < used + bytes) capacity *= 2;
    const grown = Buffer.allocUnsafeSlow(Math.min(capacity, maxRecordsBytes));
    buffer.copy(grown, 0, 0, used);
    buffer = grown;
  };

  return {
    get count() {
      return sizes.length;
    },
    get capacity() {
      return buffer.length;
    },
    append(record) {
      const separator = sizes.length > 0 ? 1 : 0;
      // A UTF-8 character is at most 3 bytes per UTF-16 unit; measure only when that bound
      // does not already fit (a rare, large record).
      let size = record.length * 3;
      if (used + separator + size > maxRecordsBytes) {
        size = Buffer.byteLength(record);
        if (size > maxRecordsBytes) return 'oversize';
        if (used + separator + size > maxRecordsBytes) return 'full';
      }
      reserve(separator + size);
      if (separator) buffer[used++] = COMMA;
      const written = buffer.write(record, used, 'utf8');
      used += written;
      sizes.push(written);
      return 'added';
    },
    close(envelope, allocate) {
      if (sizes.length === 0) return undefined;
      const body = allocate(envelope.length + used + 2);
      envelope.copy(body, 0);
      buffer.copy(body, envelope.length, 0, used);
      body[envelope.length + used] = CLOSE_ARRAY;
      body[envelope.length + used + 1] = CLOSE_OBJECT;
      const closed = { body, sizes };
      used = 0;
      sizes = [];
      return closed;
    },
  };
}
