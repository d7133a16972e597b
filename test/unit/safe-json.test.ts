import { describe, expect, it } from 'vitest';
import { encodeNumber, encodeValue } from '../../src/exporter/safe-json.js';

/** Encodes, checks the text is valid JSON, and returns it parsed. */
function roundTrip(value: unknown): unknown {
  const text = encodeValue(value);
  if (text === undefined) return undefined;
  return JSON.parse(text);
}

describe('encodeValue', () => {
  it('encodes plain JSON values as JSON.stringify does', () => {
    const value = { s: 'a"b\\c\n', n: -1.5, t: true, f: false, z: null, a: [1, [2]], o: {} };
    expect(encodeValue(value)).toBe(JSON.stringify(value));
  });

  it('BigInt → decimal string', () => {
    expect(roundTrip(2n ** 70n)).toBe('1180591620717411303424');
    expect(roundTrip({ n: -5n })).toEqual({ n: '-5' });
  });

  it('Uint8Array and other byte views → base64 of exactly their bytes', () => {
    expect(roundTrip(new Uint8Array([0, 255, 16]))).toBe('AP8Q');
    const backing = Buffer.from('xxhelloxx');
    expect(roundTrip(backing.subarray(2, 7))).toBe(Buffer.from('hello').toString('base64'));
    expect(roundTrip(new Uint8Array(0))).toBe('');
    expect(roundTrip(new Uint8Array([1, 2]).buffer)).toBe('AQI=');
  });

  it('Error → name, message, stack, cause and own properties', () => {
    const root = new TypeError('root cause');
    const error = Object.assign(new Error('boom', { cause: root }), { code: 'E_BOOM' });
    const encoded = roundTrip(error) as Record<string, unknown>;
    expect(encoded).toMatchObject({
      name: 'Error',
      message: 'boom',
      code: 'E_BOOM',
      cause: { name: 'TypeError', message: 'root cause' },
    });
    expect(encoded.stack).toEqual(expect.stringContaining('boom'));
    expect((encoded.cause as Record<string, unknown>).stack).toEqual(
      expect.stringContaining('root cause'),
    );
  });

  it('Error with a non-error cause and a subclass name', () => {
    class PaymentError extends Error {
      override name = 'PaymentError';
    }
    expect(roundTrip(new PaymentError('declined', { cause: { status: 402 } }))).toMatchObject({
      name: 'PaymentError',
      message: 'declined',
      cause: { status: 402 },
    });
  });

  it('an Error that causes itself does not loop', () => {
    const error = new Error('self');
    (error as { cause?: unknown }).cause = error;
    expect(roundTrip(error)).toMatchObject({ message: 'self', cause: '[Circular]' });
  });

  it('Date → ISO string, an invalid Date → null', () => {
    expect(roundTrip(new Date(Date.UTC(2026, 10, 21, 4, 15, 27, 123)))).toBe(
      '2026-11-21T04:15:27.123Z',
    );
    expect(roundTrip(new Date(Number.NaN))).toBeNull();
  });

  it('Map → object (keys as strings), Set → array', () => {
    expect(
      roundTrip(
        new Map<unknown, unknown>([
          ['a', 1],
          [2, new Set(['x'])],
          [true, undefined],
        ]),
      ),
    ).toEqual({ a: 1, '2': ['x'] });
    expect(roundTrip(new Set([1, 'two', { three: 3 }]))).toEqual([1, 'two', { three: 3 }]);
  });

  it('circular references → "[Circular]"', () => {
    const a: Record<string, unknown> = { name: 'a' };
    const b: Record<string, unknown> = { name: 'b', a };
    a.b = b;
    const list: unknown[] = [1];
    list.push(list);
    expect(roundTrip(a)).toEqual({ name: 'a', b: { name: 'b', a: '[Circular]' } });
    expect(roundTrip(list)).toEqual([1, '[Circular]']);
    const map = new Map<string, unknown>();
    map.set('me', map);
    expect(roundTrip(map)).toEqual({ me: '[Circular]' });
  });

  it('the same object twice side by side is not circular', () => {
    const shared = { x: 1 };
    expect(roundTrip({ a: shared, b: shared, list: [shared, shared] })).toEqual({
      a: { x: 1 },
      b: { x: 1 },
      list: [{ x: 1 }, { x: 1 }],
    });
  });

  it('NaN and ±Infinity → strings, as the OTLP JSON mapping does', () => {
    expect(roundTrip([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0])).toEqual(
      ['NaN', 'Infinity', '-Infinity', 0],
    );
    expect(encodeNumber(Number.NaN)).toBe('"NaN"');
    expect(encodeNumber(1e21)).toBe('1e+21');
  });

  it('undefined, functions and symbols → omitted in objects, null in arrays, nothing alone', () => {
    const sym = Symbol('s');
    expect(roundTrip({ u: undefined, f: () => 1, s: sym, keep: 1 })).toEqual({ keep: 1 });
    expect(roundTrip([undefined, () => 1, sym])).toEqual([null, null, null]);
    expect(encodeValue(undefined)).toBeUndefined();
    expect(encodeValue(() => 1)).toBeUndefined();
    expect(encodeValue(sym)).toBeUndefined();
  });

  it('a throwing getter → "[Unserializable]" for its object; siblings survive', () => {
    const hostile = {
      get bad(): never {
        throw new Error('getter exploded');
      },
    };
    expect(roundTrip({ ok: 1, hostile, after: 'yes' })).toEqual({
      ok: 1,
      hostile: '[Unserializable]',
      after: 'yes',
    });
    expect(roundTrip(hostile)).toBe('[Unserializable]');
  });

  it('a throwing toJSON → "[Unserializable]"; a working toJSON is honoured', () => {
    expect(
      roundTrip({
        toJSON() {
          throw new Error('no');
        },
      }),
    ).toBe('[Unserializable]');
    expect(roundTrip({ secret: 'x', toJSON: () => ({ shown: true }) })).toEqual({ shown: true });
  });

  it('a Proxy whose traps throw → "[Unserializable]"', () => {
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    expect(roundTrip({ proxy })).toEqual({ proxy: '[Unserializable]' });
  });

  it('nesting deeper than 64 → "[Truncated]" at depth 64, without a stack overflow', () => {
    const depthOf = (value: unknown): { depth: number; leaf: unknown } => {
      let depth = 0;
      let node = value;
      while (typeof node === 'object' && node !== null) {
        node = (node as { next: unknown }).next;
        depth++;
      }
      return { depth, leaf: node };
    };
    const nest = (levels: number) => {
      let value: Record<string, unknown> = { next: 'bottom' };
      for (let i = 1; i < levels; i++) value = { next: value };
      return value;
    };
    expect(depthOf(roundTrip(nest(64)))).toEqual({ depth: 64, leaf: 'bottom' });
    expect(depthOf(roundTrip(nest(65)))).toEqual({ depth: 64, leaf: '[Truncated]' });
    expect(depthOf(roundTrip(nest(100_000)))).toEqual({ depth: 64, leaf: '[Truncated]' });
  });
});
