import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RFC3339_TIMESTAMP } from '../../src/contract/timestamps.js';
import { formatTimestamp, parseTimestamp } from '../../src/receiver/ingest/timestamps.js';

/**
 * The parser caches the last date-and-time prefix it read, to save the full parse of most
 * timestamps (docs/performance.md, "Profile"). This model is the uncached parser it replaced:
 * whatever order timestamps come in, both must agree.
 */
const RFC3339 = RFC3339_TIMESTAMP;

function modelParse(text: string): bigint | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return undefined;
  if (second > 60 || year < 1677 || year > 2262) return undefined;
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  const millis = Date.UTC(year, month - 1, day, hour, minute, second);
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    offsetMinutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  const nanos =
    BigInt((millis - offsetMinutes * 60_000) / 1000) * 1_000_000_000n +
    BigInt(fraction.padEnd(9, '0'));
  return nanos >= -(2n ** 63n) && nanos <= 2n ** 63n - 1n ? nanos : undefined;
}

const two = (values: string[]) => fc.constantFrom(...values);
const prefix = fc
  .tuple(
    two(['2026', '1677', '2262', '1970', '0099', '1676', '2263']),
    two(['01', '02', '12', '13', '00']),
    two(['01', '28', '29', '30', '31', '00']),
    two(['T', 't', ' ', 'x']),
    two(['00', '23', '24']),
    two(['00', '59', '60']),
    two(['00', '59', '60', '61']),
  )
  .map(([y, mo, d, sep, h, mi, s]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}`);
const tail = fc
  .tuple(
    fc.oneof(
      fc.constant(''),
      fc.constant('.'),
      fc.stringMatching(/^\.\d{1,10}$/),
      fc.constantFrom('.12a', '.Z'),
    ),
    fc.oneof(
      fc.constantFrom('Z', 'z', '', 'ZZ', ' Z', '+1:00', '+01:0', '+01:00x', '+0a:00'),
      fc.stringMatching(/^[+-]\d{2}:\d{2}$/),
    ),
  )
  .map(([fraction, zone]) => fraction + zone);

describe('parseTimestamp', () => {
  it('agrees with the uncached RFC 3339 parser for any sequence of timestamps', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(prefix, fc.array(tail, { minLength: 1, maxLength: 4 }))),
        (runs) => {
          for (const [start, ends] of runs) {
            for (const end of ends) {
              const text = start + end;
              expect(parseTimestamp(text), text).toBe(modelParse(text));
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps the edges of the storable range, through the cache too', () => {
    for (const text of [
      '2262-04-11T23:47:16.854775807Z',
      '2262-04-11T23:47:16.854775808Z',
      '2262-04-11T23:47:16.854775807-00:01',
      '1677-09-21T00:12:43.145224192Z',
      '1677-09-21T00:12:43.145224191Z',
      '1677-09-21T00:12:43.145224192+00:01',
    ]) {
      expect(parseTimestamp(text), text).toBe(modelParse(text));
    }
    expect(formatTimestamp(parseTimestamp('2262-04-11T23:47:16.854775807Z') as bigint)).toBe(
      '2262-04-11T23:47:16.854775807Z',
    );
  });
});
