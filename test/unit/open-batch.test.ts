import { describe, expect, it } from 'vitest';
import { createOpenBatch } from '../../src/exporter/open-batch.js';

const envelope = Buffer.from('{"logs":[');

function closeToText(batch: ReturnType<typeof createOpenBatch>) {
  const closed = batch.close(envelope, Buffer.allocUnsafe);
  return closed && { text: closed.body.toString('utf8'), sizes: closed.sizes };
}

describe('open batch', () => {
  it('joins records with commas behind the envelope, with each record’s UTF-8 size', () => {
    const batch = createOpenBatch(1024);
    expect(batch.append('{"a":1}')).toBe('added');
    expect(batch.append('{"m":"é × 😀"}')).toBe('added');
    expect(batch.count).toBe(2);
    const closed = closeToText(batch);
    expect(closed?.text).toBe('{"logs":[{"a":1},{"m":"é × 😀"}]}');
    expect(closed?.sizes).toEqual([7, Buffer.byteLength('{"m":"é × 😀"}')]);
    JSON.parse(closed?.text ?? '');
  });

  it('is empty again after close, and closing an empty batch gives nothing', () => {
    const batch = createOpenBatch(1024);
    batch.append('{"a":1}');
    closeToText(batch);
    expect(batch.count).toBe(0);
    expect(closeToText(batch)).toBeUndefined();
    batch.append('{"b":2}');
    expect(closeToText(batch)?.text).toBe('{"logs":[{"b":2}]}');
  });

  it('says full when a record would pass the budget, counting the comma and multi-byte text', () => {
    const record = `{"m":"${'é'.repeat(10)}"}`; // 28 bytes, 18 UTF-16 units
    const batch = createOpenBatch(28 * 2 + 1);
    expect(batch.append(record)).toBe('added');
    expect(batch.append(record)).toBe('added');
    expect(batch.append('{}')).toBe('full');
    expect(closeToText(batch)?.sizes).toEqual([28, 28]);
    expect(createOpenBatch(28 * 2).append(record)).toBe('added');
    const tight = createOpenBatch(28 * 2);
    tight.append(record);
    expect(tight.append(record)).toBe('full'); // 28 + 1 + 28 > 56
  });

  it('says oversize for a record larger than the whole budget', () => {
    const batch = createOpenBatch(16);
    expect(batch.append(`"${'x'.repeat(20)}"`)).toBe('oversize');
    expect(batch.count).toBe(0);
  });

  it('grows its buffer as records arrive and keeps what was written', () => {
    const batch = createOpenBatch(1024 * 1024);
    const records = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ i, text: `record ${i} ✓` }),
    );
    for (const record of records) expect(batch.append(record)).toBe('added');
    expect(batch.capacity).toBeGreaterThan(16 * 1024);
    expect(JSON.parse(closeToText(batch)?.text.slice('{"logs":'.length, -1) ?? '')).toEqual(
      records.map((r) => JSON.parse(r)),
    );
  });
});
