import { describe, expect, it, vi } from 'vitest';
import { envelopeBytes, splitIntoBatches } from '../../src/exporter/batch-splitter.js';

const PREFIX = '{"resource_id":"x","logs":[';
const ENVELOPE = envelopeBytes(Buffer.from(PREFIX));

/** The request body a batch becomes. */
const bodyOf = (records: readonly string[]) => `${PREFIX}${records.join(',')}]}`;
const record = (message: string) => JSON.stringify({ message });

describe('envelopeBytes', () => {
  it('counts the prefix in UTF-8 plus the closing "]}"', () => {
    expect(envelopeBytes(Buffer.from('{"a":['))).toBe(8);
    expect(envelopeBytes(Buffer.from('{"é":['))).toBe(9);
  });
});

describe('splitIntoBatches', () => {
  it('keeps everything in one batch when it fits', () => {
    const records = ['{"a":1}', '{"b":2}'];
    const max = Buffer.byteLength(bodyOf(records));
    expect(splitIntoBatches(records, ENVELOPE, max, vi.fn())).toEqual([{ records, sizes: [7, 7] }]);
  });

  it('splits at the byte budget exactly, counting the commas, and keeps order', () => {
    const records = Array.from({ length: 10 }, (_, i) => record(`message ${i}`));
    // Room for exactly three records and their two commas.
    const max = Buffer.byteLength(bodyOf(records.slice(0, 3)));
    const onOversize = vi.fn();
    const batches = splitIntoBatches(records, ENVELOPE, max, onOversize);

    expect(batches.map((b) => b.records.length)).toEqual([3, 3, 3, 1]);
    expect(batches.flatMap((b) => b.records)).toEqual(records);
    for (const batch of batches)
      expect(Buffer.byteLength(bodyOf(batch.records))).toBeLessThanOrEqual(max);
    expect(onOversize).not.toHaveBeenCalled();
    // One byte less and only two fit.
    expect(splitIntoBatches(records, ENVELOPE, max - 1, onOversize)[0]?.records).toHaveLength(2);
  });

  it('measures multi-byte UTF-8, not string length', () => {
    const ascii = record('x'.repeat(30));
    const euro = record('€'.repeat(10)); // 10 characters, 30 bytes
    const emoji = record('🪵'.repeat(10)); // 20 UTF-16 units, 40 bytes
    const max = ENVELOPE + Buffer.byteLength(ascii) * 2 + 1;
    const batches = splitIntoBatches([euro, emoji, ascii, euro], ENVELOPE, max, vi.fn());

    for (const batch of batches) {
      expect(Buffer.byteLength(bodyOf(batch.records))).toBeLessThanOrEqual(max);
    }
    expect(batches.flatMap((b) => b.records)).toEqual([euro, emoji, ascii, euro]);
    // By string length euro + emoji would fit together; by bytes they do not.
    expect(euro.length + emoji.length + 1).toBeLessThanOrEqual(max - ENVELOPE);
    expect(batches[0]?.records).toEqual([euro]);
  });

  it('reports records too large to fit alone as oversize and sends the rest in order', () => {
    const small = [record('a'), record('b'), record('c')];
    const huge = record('€'.repeat(200));
    const max = ENVELOPE + 100;
    const onOversize = vi.fn();

    const batches = splitIntoBatches(
      [small[0] as string, huge, small[1] as string, huge, small[2] as string],
      ENVELOPE,
      max,
      onOversize,
    );
    expect(onOversize.mock.calls).toEqual([[huge], [huge]]);
    expect(batches.flatMap((b) => b.records)).toEqual(small);
  });

  it('a record exactly as large as the budget fits alone', () => {
    const exact = record('y'.repeat(50));
    const max = ENVELOPE + Buffer.byteLength(exact);
    const onOversize = vi.fn();
    const size = Buffer.byteLength(exact);
    expect(splitIntoBatches([exact, exact], ENVELOPE, max, onOversize)).toEqual([
      { records: [exact], sizes: [size] },
      { records: [exact], sizes: [size] },
    ]);
    expect(splitIntoBatches([exact], ENVELOPE, max - 1, onOversize)).toEqual([]);
    expect(onOversize).toHaveBeenCalledTimes(1);
  });

  it('gives no batches for no records', () => {
    expect(splitIntoBatches([], ENVELOPE, 1024, vi.fn())).toEqual([]);
  });
});
