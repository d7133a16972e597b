import { describe, expect, it, vi } from 'vitest';
import {
  type Batch,
  countOf,
  createBatchBuilder,
  recordsOf,
  sliceBatch,
  splitIntoBatches,
} from '../../src/exporter/batch-splitter.js';

const PREFIX = '{"resource_id":"x","logs":[';
const ENVELOPE = Buffer.from(PREFIX);
/** Bytes the envelope adds to a body: the prefix and the closing "]}". */
const OVERHEAD = ENVELOPE.length + 2;

/** The request body a list of records becomes. */
const bodyOf = (records: readonly string[]) => `${PREFIX}${records.join(',')}]}`;
const record = (message: string) => JSON.stringify({ message });
const records = (batches: Batch[]) => batches.flatMap(recordsOf);

describe('splitIntoBatches', () => {
  it('keeps everything in one body when it fits, written exactly as envelope + records + "]}"', () => {
    const input = ['{"a":1}', '{"b":2}'];
    const max = Buffer.byteLength(bodyOf(input));
    const batches = splitIntoBatches(input, ENVELOPE, max, vi.fn());
    expect(batches).toHaveLength(1);
    expect(batches[0]?.body.toString()).toBe(bodyOf(input));
    expect(recordsOf(batches[0] as Batch)).toEqual(input);
  });

  it('splits at the byte budget exactly, counting the commas, and keeps order', () => {
    const input = Array.from({ length: 10 }, (_, i) => record(`message ${i}`));
    // Room for exactly three records and their two commas.
    const max = Buffer.byteLength(bodyOf(input.slice(0, 3)));
    const onOversize = vi.fn();
    const batches = splitIntoBatches(input, ENVELOPE, max, onOversize);

    expect(batches.map(countOf)).toEqual([3, 3, 3, 1]);
    expect(records(batches)).toEqual(input);
    for (const batch of batches) {
      expect(batch.body.length).toBeLessThanOrEqual(max);
      expect(batch.body.toString()).toBe(bodyOf(recordsOf(batch)));
    }
    expect(onOversize).not.toHaveBeenCalled();
    // One byte less and only two fit.
    expect(countOf(splitIntoBatches(input, ENVELOPE, max - 1, onOversize)[0] as Batch)).toBe(2);
  });

  it('measures multi-byte UTF-8, not string length', () => {
    const ascii = record('x'.repeat(30));
    const euro = record('€'.repeat(10)); // 10 characters, 30 bytes
    const emoji = record('🪵'.repeat(10)); // 20 UTF-16 units, 40 bytes
    const max = OVERHEAD + Buffer.byteLength(ascii) * 2 + 1;
    const batches = splitIntoBatches([euro, emoji, ascii, euro], ENVELOPE, max, vi.fn());

    for (const batch of batches) expect(batch.body.length).toBeLessThanOrEqual(max);
    expect(records(batches)).toEqual([euro, emoji, ascii, euro]);
    // By string length euro + emoji would fit together; by bytes they do not.
    expect(euro.length + emoji.length + 1).toBeLessThanOrEqual(max - OVERHEAD);
    expect(recordsOf(batches[0] as Batch)).toEqual([euro]);
    expect(JSON.parse(batches[1]?.body.toString() ?? '').logs[0].message).toBe('🪵'.repeat(10));
  });

  it('reports records too large to fit alone as oversize and sends the rest in order', () => {
    const small = [record('a'), record('b'), record('c')];
    const huge = record('€'.repeat(200));
    const onOversize = vi.fn();
    const batches = splitIntoBatches(
      [small[0] as string, huge, small[1] as string, huge, small[2] as string],
      ENVELOPE,
      OVERHEAD + 100,
      onOversize,
    );
    expect(onOversize.mock.calls).toEqual([[huge], [huge]]);
    expect(records(batches)).toEqual(small);
  });

  it('a record exactly as large as the budget fits alone', () => {
    const exact = record('y'.repeat(50));
    const max = OVERHEAD + Buffer.byteLength(exact);
    const onOversize = vi.fn();
    const batches = splitIntoBatches([exact, exact], ENVELOPE, max, onOversize);
    expect(batches.map(recordsOf)).toEqual([[exact], [exact]]);
    expect(batches.map((b) => b.body.length)).toEqual([max, max]);
    expect(splitIntoBatches([exact], ENVELOPE, max - 1, onOversize)).toEqual([]);
    expect(onOversize).toHaveBeenCalledTimes(1);
  });

  it('gives no batches for no records', () => {
    expect(splitIntoBatches([], ENVELOPE, 1024, vi.fn())).toEqual([]);
  });

  it('grows its buffer past the initial capacity up to the budget', () => {
    const input = Array.from({ length: 2000 }, (_, i) => record(`${i} ${'z'.repeat(90)}`));
    const batches = splitIntoBatches(input, ENVELOPE, 1024 * 1024, vi.fn());
    expect(batches).toHaveLength(1);
    expect(batches[0]?.body.length).toBeGreaterThan(64 * 1024);
    expect(JSON.parse(batches[0]?.body.toString() ?? '').logs).toHaveLength(2000);
  });

  it('a builder can be reused after finish()', () => {
    const builder = createBatchBuilder(ENVELOPE, 1024, vi.fn());
    builder.add(record('one'));
    expect(builder.finish().map(recordsOf)).toEqual([[record('one')]]);
    builder.add(record('two'));
    expect(builder.finish().map(recordsOf)).toEqual([[record('two')]]);
  });
});

describe('sliceBatch', () => {
  it('makes a body of its own from any run of records, as 413 halving needs', () => {
    const input = ['{"a":1}', '{"b":"é"}', '{"c":3}', '{"d":4}', '{"e":5}'];
    const [batch] = splitIntoBatches(input, ENVELOPE, 4096, vi.fn()) as [Batch];
    for (const [from, to] of [
      [0, 3],
      [3, 5],
      [1, 2],
      [0, 5],
    ] as const) {
      const part = sliceBatch(batch, from, to);
      expect(part.body.toString()).toBe(bodyOf(input.slice(from, to)));
      expect(recordsOf(part)).toEqual(input.slice(from, to));
    }
    const half = sliceBatch(sliceBatch(batch, 0, 3), 1, 3);
    expect(recordsOf(half)).toEqual(input.slice(1, 3));
  });
});
