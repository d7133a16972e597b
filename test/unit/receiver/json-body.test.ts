import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ReceiverHttpError } from '../../../src/receiver/errors.js';
import { isRawJson } from '../../../src/receiver/ingest/exact-numbers.js';
import {
  decodeJsonBody,
  maxNesting,
  TooDeepRecord,
} from '../../../src/receiver/ingest/json-body.js';

const LIMITS = { maxBodyBytes: 1_000, maxDepth: 4 };
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ReceiverHttpError);
  const { statusCode, code, message } = error as ReceiverHttpError;
  return { statusCode, code, message };
}

describe('decodeJsonBody: encodings and limits', () => {
  it('parses a plain body, and gzip under any casing of the header', async () => {
    const value = { logs: [{ message: 'hi' }] };
    expect((await decodeJsonBody(json(value), undefined, LIMITS)).value).toEqual(value);
    expect((await decodeJsonBody(json(value), 'identity', LIMITS)).value).toEqual(value);
    for (const encoding of ['gzip', ' GZIP ', 'x-gzip']) {
      const decoded = await decodeJsonBody(gzipSync(json(value)), encoding, LIMITS);
      expect(decoded.value).toEqual(value);
    }
  });

  it('digests the decompressed bytes, so plain and gzip bodies replay alike', async () => {
    const bytes = json({ logs: [] });
    const plain = await decodeJsonBody(bytes, undefined, LIMITS);
    const gzipped = await decodeJsonBody(gzipSync(bytes), 'gzip', LIMITS);
    expect(plain.digest()).toMatch(/^[0-9a-f]{64}$/);
    expect(gzipped.digest()).toBe(plain.digest());
  });

  it('cuts off a gzip body that inflates past maxBodyBytes with a 413', async () => {
    const bomb = gzipSync(Buffer.from(`"${'a'.repeat(5_000)}"`));
    expect(await refusal(decodeJsonBody(bomb, 'gzip', LIMITS))).toMatchObject({
      statusCode: 413,
      code: 'payload_too_large',
    });
  });

  it('answers 400 for bytes that are not gzip, and 415 for another encoding', async () => {
    expect(await refusal(decodeJsonBody(json({}), 'gzip', LIMITS))).toEqual({
      statusCode: 400,
      code: 'invalid_body',
      message: 'request body is not valid gzip',
    });
    expect(await refusal(decodeJsonBody(json({}), 'br', LIMITS))).toEqual({
      statusCode: 415,
      code: 'unsupported_encoding',
      message: 'Content-Encoding "br" is not supported (use gzip or none)',
    });
  });

  it('answers 400 for an empty body and for text that is not JSON', async () => {
    expect(await refusal(decodeJsonBody(Buffer.alloc(0), undefined, LIMITS))).toEqual({
      statusCode: 400,
      code: 'invalid_body',
      message: 'request body is empty',
    });
    const notJson = await refusal(decodeJsonBody(Buffer.from('{"a":'), undefined, LIMITS));
    expect(notJson).toMatchObject({ statusCode: 400, code: 'invalid_body' });
    expect(notJson.message).toMatch(/^request body is not valid JSON: /);
  });
});

describe('decodeJsonBody: nesting and prototype keys', () => {
  it('refuses a plain body nested deeper than maxDepth, even when it is not JSON', async () => {
    expect((await decodeJsonBody(json(nested(4)), undefined, LIMITS)).value).toEqual(nested(4));
    expect(await refusal(decodeJsonBody(json(nested(5)), undefined, LIMITS))).toEqual({
      statusCode: 400,
      code: 'nesting_too_deep',
      message: 'JSON nesting depth 5 exceeds 4',
    });
    const broken = Buffer.from('[[[[[[');
    expect(await refusal(decodeJsonBody(broken, undefined, LIMITS))).toMatchObject({
      code: 'nesting_too_deep',
      message: 'JSON nesting depth 6 exceeds 4',
    });
  });

  it('replaces only the too deep record of an ingest body', async () => {
    const body = { resource_id: 'r', logs: [{ ok: 1 }, nested(5)] };
    const { value } = await decodeJsonBody(json(body), undefined, LIMITS, true);
    const logs = (value as { logs: unknown[] }).logs;
    expect(logs[0]).toEqual({ ok: 1 });
    expect(logs[1]).toBeInstanceOf(TooDeepRecord);
    expect(logs[1]).toMatchObject({ depth: 5, maxDepth: 4 });
  });

  it('treats a single too deep record (no logs array) as one record', async () => {
    const { value } = await decodeJsonBody(
      json({ resource_id: 'r', deep: nested(4) }),
      undefined,
      LIMITS,
      true,
    );
    expect(value).toEqual({ resource_id: 'r', logs: [new TooDeepRecord(5, 4)] });
  });

  it('refuses an ingest body whose envelope outside logs is too deep', async () => {
    const body = { logs: [], meta: nested(4) };
    expect(await refusal(decodeJsonBody(json(body), undefined, LIMITS, true))).toMatchObject({
      statusCode: 400,
      code: 'nesting_too_deep',
    });
  });

  it('removes __proto__ keys at every depth', async () => {
    const text = '{"__proto__":{"admin":true},"logs":[{"a":{"__proto__":{"x":1}},"b":2}]}';
    for (const ingest of [false, true]) {
      const { value } = await decodeJsonBody(Buffer.from(text), undefined, LIMITS, ingest);
      expect(Object.hasOwn(value as object, '__proto__')).toBe(false);
      const record = (value as { logs: { a: object }[] }).logs[0];
      expect(Object.hasOwn(record?.a as object, '__proto__')).toBe(false);
      expect(record).toEqual({ a: {}, b: 2 });
    }
  });

  it('keeps the text of numbers a double cannot hold in an ingest body', async () => {
    const text = '{"logs":[{"id":123456789012345678901234567890,"n":1.5}]}';
    const { value } = await decodeJsonBody(Buffer.from(text), undefined, LIMITS, true);
    const record = (value as { logs: Record<string, unknown>[] }).logs[0] ?? {};
    expect(isRawJson(record.id)).toBe(true);
    expect((record.id as { rawJSON: string }).rawJSON).toBe('123456789012345678901234567890');
    expect(record.n).toBe(1.5);
  });
});

describe('maxNesting', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(maxNesting(Buffer.from('1'))).toBe(0);
    expect(maxNesting(Buffer.from('{"a":[{"b":[]}]}'))).toBe(4);
    expect(maxNesting(Buffer.from('{"a":"[[[{{{\\"[["}'))).toBe(1);
  });
});
