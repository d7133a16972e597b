import { describe, expect, it } from 'vitest';
import { splitIntoBatches } from '../../src/exporter/batch-splitter.js';
import { encodeBody } from '../../src/exporter/body-encoder.js';

describe('encodeBody', () => {
  it('writes exactly the envelope, the records joined by commas and "]}", multi-byte UTF-8 included', () => {
    const envelope = '{"resource_id":"é","logs":[';
    const records = [{ message: 'plain' }, { message: 'ünïcødé ✓' }, { message: '🚀 emoji' }].map(
      (r) => JSON.stringify(r),
    );
    const [batch] = splitIntoBatches(records, 0, 1 << 20, () => undefined);
    const body = encodeBody(Buffer.from(envelope), batch as NonNullable<typeof batch>);

    expect(body.toString('utf8')).toBe(`${envelope}${records.join(',')}]}`);
    expect(
      JSON.parse(body.toString('utf8')).logs.map((l: { message: string }) => l.message),
    ).toEqual(['plain', 'ünïcødé ✓', '🚀 emoji']);
  });

  it('writes an empty logs array for an empty batch', () => {
    expect(encodeBody(Buffer.from('{"logs":['), { records: [], sizes: [] }).toString()).toBe(
      '{"logs":[]}',
    );
  });

  it('refuses sizes that do not match the records instead of sending stale bytes', () => {
    const reused = Buffer.alloc(64, 'x');
    const batch = { records: ['{"a":1}'], sizes: [9] };
    expect(() => encodeBody(Buffer.from('{"logs":['), batch, (n) => reused.subarray(0, n))).toThrow(
      /wrote 18 of 20 bytes/,
    );
  });

  it('writes a lone surrogate as the replacement character it was measured as', () => {
    const record = JSON.stringify({ message: 'bad \ud800 pair' }).replace('\\ud800', '\ud800');
    const [batch] = splitIntoBatches([record], 0, 1 << 20, () => undefined);
    const body = encodeBody(Buffer.from('{"logs":['), batch as NonNullable<typeof batch>);
    expect(body.toString('utf8')).toContain('\ufffd');
  });
});
