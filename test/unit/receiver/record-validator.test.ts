import { describe, expect, it } from 'vitest';
import { parseExactNumbers } from '../../../src/receiver/ingest/exact-numbers.js';
import { TooDeepRecord } from '../../../src/receiver/ingest/json-body.js';
import {
  type RecordLimits,
  validateRecord,
} from '../../../src/receiver/ingest/record-validator.js';

const RECEIVED = 1_700_000_000_000_000_000n;
const LIMITS: RecordLimits = { maxMessageBytes: 100, maxAttributesBytes: 200 };

function accept(raw: unknown, limits = LIMITS) {
  const verdict = validateRecord(raw, 0, RECEIVED, limits);
  if (!('log' in verdict)) throw new Error(`rejected: ${JSON.stringify(verdict.error)}`);
  return verdict.log;
}

function rejection(raw: unknown, limits = LIMITS, index = 3) {
  const verdict = validateRecord(raw, index, RECEIVED, limits);
  if (!('error' in verdict)) throw new Error('accepted');
  return verdict.error;
}

describe('validateRecord: accepted records', () => {
  it('defaults ts to the time received, level to info, message to ""', () => {
    expect(accept({})).toMatchObject({
      tsNs: RECEIVED,
      observedTsNs: RECEIVED,
      level: 'info',
      levelRank: 20,
      severityNumber: null,
      message: '',
      logger: null,
      attributes: {},
      traceId: null,
      spanId: null,
      eventName: null,
      recordId: null,
      unknownFields: {},
    });
  });

  it('keeps every known field, and unknown fields apart', () => {
    const log = accept({
      ts: '2026-11-21T04:15:27.123456789Z',
      observed_ts: '2026-11-21T04:15:28Z',
      level: 'WARN',
      severity_number: 13,
      message: 'slow payment',
      logger: 'checkout',
      attributes: { 'http.route': '/pay' },
      extra: { retry: 2 },
      body: ['a'],
      trace_id: '4BF92F3577B34DA6A3CE929D0E0E4736',
      span_id: '00f067aa0ba902b7',
      event_name: 'payment.slow',
      id: 17,
      region: 'eu',
    });
    expect(log).toMatchObject({
      tsNs: BigInt(Date.parse('2026-11-21T04:15:27Z')) * 1_000_000n + 123_456_789n,
      observedTsNs: BigInt(Date.parse('2026-11-21T04:15:28Z')) * 1_000_000n,
      level: 'warning',
      levelRank: 30,
      severityNumber: 13,
      message: 'slow payment',
      logger: 'checkout',
      attributes: { 'http.route': '/pay' },
      extra: { retry: 2 },
      body: ['a'],
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      eventName: 'payment.slow',
      recordId: '17',
      unknownFields: { region: 'eu' },
      json: { attributes: '{"http.route":"/pay"}', extra: '{"retry":2}', body: '["a"]' },
    });
  });

  it('takes the level of severity_number when no level is given', () => {
    expect(accept({ severity_number: 17 })).toMatchObject({ level: 'error', levelRank: 40 });
    expect(accept({ severity_number: 0 })).toMatchObject({ level: 'info', severityNumber: 0 });
  });

  it('keeps a level name it does not know as sent, ranked as info', () => {
    expect(accept({ level: 'chatty' })).toMatchObject({ level: 'chatty', levelRank: 20 });
    expect(accept({ level: 'level 25' })).toMatchObject({ level: 'level 25', levelRank: 25 });
  });

  it('reads all-zero and empty trace context as none', () => {
    expect(accept({ trace_id: '0'.repeat(32), span_id: '' })).toMatchObject({
      traceId: null,
      spanId: null,
    });
  });

  it('stores an id kept as text by the exact-number parser as that text', () => {
    const raw = parseExactNumbers('{"id": 123456789012345678901234567890}');
    expect(accept(raw).recordId).toBe('123456789012345678901234567890');
  });

  it('accepts a message of exactly the limit in UTF-8 bytes', () => {
    expect(accept({ message: 'é'.repeat(50) }).message).toHaveLength(50);
  });
});

describe('validateRecord: rejections name the field and keep the index', () => {
  it.each([
    [null, 'invalid_record', 'a log record must be a JSON object'],
    [[1], 'invalid_record', 'a log record must be a JSON object'],
    ['text', 'invalid_record', 'a log record must be a JSON object'],
    [{ message: 5 }, 'invalid_message', 'message must be a string'],
    [{ attributes: [1] }, 'invalid_attributes', 'attributes must be a JSON object'],
    [{ attributes: 'a' }, 'invalid_attributes', 'attributes must be a JSON object'],
    [
      { severity_number: 25 },
      'invalid_severity_number',
      'severity_number must be an integer from 0 to 24',
    ],
    [
      { severity_number: 1.5 },
      'invalid_severity_number',
      'severity_number must be an integer from 0 to 24',
    ],
    [{ id: { a: 1 } }, 'invalid_id', 'id must be a string or a number'],
    [{ logger: 1 }, 'invalid_logger', 'logger must be a string'],
    [{ event_name: false }, 'invalid_event_name', 'event_name must be a string'],
    [
      { ts: 'yesterday' },
      'invalid_ts',
      'ts must be an RFC 3339 timestamp with up to 9 fractional digits',
    ],
    [
      { observed_ts: 5 },
      'invalid_observed_ts',
      'observed_ts must be an RFC 3339 timestamp with up to 9 fractional digits',
    ],
    [{ trace_id: 'abc' }, 'invalid_trace_id', 'trace_id must be 32 hex characters'],
    [{ span_id: 'z'.repeat(16) }, 'invalid_span_id', 'span_id must be 16 hex characters'],
    [{ level: 'x'.repeat(65) }, 'invalid_level', 'level must be a string of at most 64 characters'],
    [{ level: 3 }, 'invalid_level', 'level must be a string of at most 64 characters'],
  ])('%j: %s', (raw, code, message) => {
    expect(rejection(raw)).toEqual({ index: 3, code, message });
  });

  it('rejects a message over the limit in UTF-8 bytes, not characters', () => {
    expect(rejection({ message: 'é'.repeat(51) })).toEqual({
      index: 3,
      code: 'message_too_large',
      message: 'message is over 100 bytes',
    });
  });

  it('rejects attributes, extra, body and unknown fields over the JSON size limit', () => {
    const big = 'x'.repeat(200);
    expect(rejection({ attributes: { big } })).toEqual({
      index: 3,
      code: 'attributes_too_large',
      message: 'attributes is 210 bytes of JSON, over 200',
    });
    expect(rejection({ extra: big }).code).toBe('extra_too_large');
    expect(rejection({ body: big }).code).toBe('body_too_large');
    expect(rejection({ other: big }).code).toBe('unknown_fields_too_large');
  });

  it('rejects a record the body decoder found too deep', () => {
    expect(rejection(new TooDeepRecord(9, 8))).toEqual({
      index: 3,
      code: 'nesting_too_deep',
      message: 'the record is nested deeper than 8 levels (the record counts as 1)',
    });
  });
});
