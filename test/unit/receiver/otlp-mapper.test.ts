import { describe, expect, it } from 'vitest';
import { fromAnyValue, fromKeyValues, fromOtlp } from '../../../src/receiver/ingest/otlp-mapper.js';

const RECEIVED = 1_700_000_000_000_000_000n;

/** One `ExportLogsServiceRequest` with one resource, one scope and the given records. */
function request(records: unknown[], resource: unknown[] = [], scope: object = {}) {
  return {
    resourceLogs: [
      { resource: { attributes: resource }, scopeLogs: [{ scope, logRecords: records }] },
    ],
  };
}

function onlyLog(record: object, scope: object = {}) {
  const [entry] = fromOtlp(request([record], [], scope), RECEIVED);
  expect(entry?.errors).toEqual([]);
  expect(entry?.logs).toHaveLength(1);
  return entry?.logs[0] as NonNullable<typeof entry>['logs'][number];
}

describe('fromAnyValue', () => {
  it('maps every AnyValue kind to its plain JSON value', () => {
    expect(fromAnyValue({ stringValue: 'hi' })).toBe('hi');
    expect(fromAnyValue({ boolValue: false })).toBe(false);
    expect(fromAnyValue({ intValue: '42' })).toBe(42);
    expect(fromAnyValue({ intValue: 7 })).toBe(7);
    expect(fromAnyValue({ doubleValue: 2.5 })).toBe(2.5);
    expect(fromAnyValue({ bytesValue: 'AQID' })).toBe('AQID');
    expect(
      fromAnyValue({ arrayValue: { values: [{ stringValue: 'a' }, { intValue: '1' }] } }),
    ).toEqual(['a', 1]);
    expect(
      fromAnyValue({ kvlistValue: { values: [{ key: 'k', value: { boolValue: true } }] } }),
    ).toEqual({ k: true });
  });

  it('keeps an int64 beyond 2^53 as its decimal string', () => {
    expect(fromAnyValue({ intValue: '9007199254740993' })).toBe('9007199254740993');
    expect(fromAnyValue({ intValue: '-9223372036854775808' })).toBe('-9223372036854775808');
  });

  it('turns an intValue that is neither a number nor a string into null', () => {
    expect(fromAnyValue({ intValue: { n: 1 } as never })).toBeNull();
  });

  // Regression: `typeof d === 'number' ? d : d` kept proto3 JSON's string doubles as strings.
  it('reads a double sent as a string (proto3 JSON) as a number', () => {
    expect(fromAnyValue({ doubleValue: '1.5' })).toBe(1.5);
    expect(fromAnyValue({ doubleValue: '-2e3' })).toBe(-2000);
  });

  it('keeps NaN and the infinities, which JSON numbers cannot hold, as strings', () => {
    expect(fromAnyValue({ doubleValue: 'NaN' })).toBe('NaN');
    expect(fromAnyValue({ doubleValue: 'Infinity' })).toBe('Infinity');
    expect(fromAnyValue({ doubleValue: '-Infinity' })).toBe('-Infinity');
  });

  it('is null for nothing, an empty AnyValue or a non-object', () => {
    expect(fromAnyValue(undefined)).toBeNull();
    expect(fromAnyValue({})).toBeNull();
    expect(fromAnyValue('text' as never)).toBeNull();
  });

  it('reads an arrayValue without an array of values as an empty array', () => {
    expect(fromAnyValue({ arrayValue: {} })).toEqual([]);
    expect(fromAnyValue({ arrayValue: { values: 'x' as never } })).toEqual([]);
  });
});

describe('fromKeyValues', () => {
  it('maps key-values to an object', () => {
    expect(
      fromKeyValues([
        { key: 'a', value: { stringValue: 'x' } },
        { key: 'b', value: { intValue: '2' } },
        { key: 'c' },
      ]),
    ).toEqual({ a: 'x', b: 2, c: null });
  });

  it('drops __proto__ keys, keys that are not strings, and anything but an array', () => {
    const result = fromKeyValues([
      { key: '__proto__', value: { kvlistValue: { values: [] } } },
      { key: 5 as never, value: { stringValue: 'n' } },
      { key: 'ok', value: { boolValue: true } },
    ]);
    expect(result).toEqual({ ok: true });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(fromKeyValues({ key: 'a' } as never)).toEqual({});
    expect(fromKeyValues(undefined)).toEqual({});
  });
});

describe('fromOtlp', () => {
  it('is empty for a request without resourceLogs', () => {
    expect(fromOtlp({}, RECEIVED)).toEqual([]);
    expect(fromOtlp(null, RECEIVED)).toEqual([]);
    expect(fromOtlp({ resourceLogs: {} }, RECEIVED)).toEqual([]);
  });

  it('maps severity numbers to levels, and keeps the number only when it is 0–24', () => {
    const level = (severityNumber: number) => onlyLog({ severityNumber });
    expect(level(5)).toMatchObject({ level: 'debug', levelRank: 10, severityNumber: 5 });
    expect(level(9)).toMatchObject({ level: 'info', levelRank: 20, severityNumber: 9 });
    expect(level(13)).toMatchObject({ level: 'warning', levelRank: 30 });
    expect(level(17)).toMatchObject({ level: 'error', levelRank: 40 });
    expect(level(21)).toMatchObject({ level: 'critical', levelRank: 50, severityNumber: 21 });
    expect(level(0)).toMatchObject({ level: 'info', severityNumber: 0 });
    expect(level(30)).toMatchObject({ level: 'info', severityNumber: null });
  });

  it('falls back to severityText, then info, and keeps the text in unknown fields', () => {
    expect(onlyLog({ severityText: 'WARN' })).toMatchObject({
      level: 'warning',
      severityNumber: null,
      unknownFields: { severity_text: 'WARN' },
    });
    expect(onlyLog({ severityNumber: 17, severityText: 'debug' }).level).toBe('error');
    expect(onlyLog({ severityText: 'chatty' }).level).toBe('info');
    expect(onlyLog({ severityNumber: 2.5 }).level).toBe('info');
  });

  it('stores a string body as the message and other bodies as JSON messages and bodies', () => {
    expect(onlyLog({ body: { stringValue: 'paid' } })).toMatchObject({
      message: 'paid',
      body: undefined,
    });
    expect(
      onlyLog({ body: { kvlistValue: { values: [{ key: 'n', value: { intValue: 3 } }] } } }),
    ).toMatchObject({ message: '{"n":3}', body: { n: 3 } });
    expect(onlyLog({})).toMatchObject({ message: '', body: undefined });
  });

  it('maps attributes, the scope (logger, version) and the event name', () => {
    const log = onlyLog(
      {
        attributes: [{ key: 'http.route', value: { stringValue: '/pay' } }],
        eventName: 'order.paid',
      },
      { name: 'checkout', version: '1.2.0' },
    );
    expect(log).toMatchObject({
      attributes: { 'http.route': '/pay' },
      logger: 'checkout',
      eventName: 'order.paid',
      recordId: null,
      unknownFields: { scope_version: '1.2.0' },
    });
    expect(onlyLog({ eventName: '' })).toMatchObject({ eventName: null, logger: null });
  });

  it('keeps valid trace and span ids in lower case, drops invalid and all-zero ones', () => {
    const trace = '4BF92F3577B34DA6A3CE929D0E0E4736';
    expect(onlyLog({ traceId: trace, spanId: '00F067AA0BA902B7' })).toMatchObject({
      traceId: trace.toLowerCase(),
      spanId: '00f067aa0ba902b7',
    });
    expect(onlyLog({ traceId: '0'.repeat(32), spanId: '0'.repeat(16) })).toMatchObject({
      traceId: null,
      spanId: null,
    });
    expect(onlyLog({ traceId: 'xyz', spanId: trace })).toMatchObject({
      traceId: null,
      spanId: null,
    });
  });

  it('takes the time, else the observed time, else the time received', () => {
    expect(onlyLog({ timeUnixNano: '1700000000000000001' })).toMatchObject({
      tsNs: 1_700_000_000_000_000_001n,
      observedTsNs: null,
    });
    expect(onlyLog({ observedTimeUnixNano: '1700000000000000002' })).toMatchObject({
      tsNs: 1_700_000_000_000_000_002n,
      observedTsNs: 1_700_000_000_000_000_002n,
    });
    expect(onlyLog({ timeUnixNano: '0' }).tsNs).toBe(RECEIVED);
    expect(onlyLog({ timeUnixNano: 'soon' }).tsNs).toBe(RECEIVED);
    expect(onlyLog({ timeUnixNano: (2n ** 64n).toString() }).tsNs).toBe(RECEIVED);
  });

  it('rejects a record that is not an object by its index across scopes, keeps the rest', () => {
    const [entry] = fromOtlp(
      {
        resourceLogs: [
          {
            scopeLogs: [
              { logRecords: [{ body: { stringValue: 'a' } }] },
              { logRecords: [null, { body: { stringValue: 'b' } }] },
            ],
          },
        ],
      },
      RECEIVED,
    );
    expect(entry?.logs.map((log) => log.message)).toEqual(['a', 'b']);
    expect(entry?.errors).toEqual([
      { index: 1, code: 'invalid_record', message: 'logRecord must be an object' },
    ]);
  });

  it('makes one batch per resource with its attributes and the SDK name', () => {
    const batches = fromOtlp(
      {
        resourceLogs: [
          {
            resource: {
              attributes: [
                { key: 'service.name', value: { stringValue: 'checkout' } },
                { key: 'telemetry.sdk.name', value: { stringValue: 'opentelemetry' } },
                { key: 'telemetry.sdk.version', value: { stringValue: '2.0.0' } },
              ],
            },
          },
          {},
        ],
      },
      RECEIVED,
    );
    expect(batches.map(({ batch }) => batch)).toEqual([
      {
        resource: {
          'service.name': 'checkout',
          'telemetry.sdk.name': 'opentelemetry',
          'telemetry.sdk.version': '2.0.0',
        },
        sdk: 'otlp:opentelemetry',
        sdkVersion: '2.0.0',
        records: [],
        envelopeExtra: {},
      },
      { resource: {}, sdk: 'otlp', sdkVersion: null, records: [], envelopeExtra: {} },
    ]);
  });
});
