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
});
