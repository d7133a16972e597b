import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTING_ATTRIBUTES } from '../../src/contract/routing-attributes.js';
import { createLogSerializer } from '../../src/exporter/log-serializer.js';
import type { ExportableLogRecord } from '../../src/exporter/otel-types.js';
import { encodeResourceAttributes } from '../../src/exporter/sdk-extra.js';
import { VERSION } from '../../src/version.js';
import { logRecord } from '../helpers/records.js';

const UUID = '3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

/** The full ingest body for some records, parsed back with JSON.parse to prove it is valid. */
function body(
  records: ExportableLogRecord[],
  resourceAttributes: Record<string, unknown> = { 'service.name': 'checkout' },
) {
  const serializer = createLogSerializer();
  const text = `${serializer.envelopePrefix(UUID, encodeResourceAttributes(resourceAttributes))}${records
    .map((r) => serializer.record(r))
    .join(',')}]}`;
  return JSON.parse(text) as {
    resource_id: string;
    sdk: string;
    sdk_version: string;
    resource: Record<string, unknown>;
    logs: Record<string, unknown>[];
  };
}

function serialize(overrides: Partial<ExportableLogRecord> = {}): Record<string, unknown> {
  const log = body([logRecord(overrides)]).logs[0];
  if (!log) throw new Error('no log');
  return log;
}

/** The record's own attributes as sent: `extra.extra`. */
function extraOf(overrides: Partial<ExportableLogRecord> = {}): unknown {
  return (serialize(overrides).extra as { extra: unknown }).extra;
}

describe('envelope', () => {
  it('carries resource_id, sdk, sdk_version and the resource attributes', () => {
    const parsed = body([logRecord()], { 'service.name': 'checkout', 'host.name': 'web-1' });
    expect(parsed).toMatchObject({
      resource_id: UUID,
      sdk: 'reslog',
      sdk_version: VERSION,
      resource: { 'service.name': 'checkout', 'host.name': 'web-1' },
    });
    expect(parsed.logs).toHaveLength(1);
  });

  it('sends sdk_version equal to the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(body([]).sdk_version).toBe(pkg.version);
  });

  it('leaves routing attributes out of the resource', () => {
    const parsed = body([], {
      'service.name': 'checkout',
      [ROUTING_ATTRIBUTES.uuid]: UUID,
      [ROUTING_ATTRIBUTES.key]: 'checkout-api',
      [ROUTING_ATTRIBUTES.username]: 'alice',
    });
    expect(parsed.resource).toEqual({ 'service.name': 'checkout' });
  });
});

describe('record fields', () => {
  it('maps a typical record to every documented field', () => {
    expect(
      serialize({
        hrTime: [1_795_234_527, 123_456_789],
        hrTimeObserved: [1_795_234_527, 124_000_000],
        severityNumber: 9,
        severityText: 'INFO',
        body: 'payment accepted',
        instrumentationScope: { name: 'checkout.http', version: '1.2.3' },
        attributes: { 'http.route': '/pay', 'order.id': 42, retried: false },
        spanContext: { traceId: TRACE_ID, spanId: SPAN_ID },
        eventName: 'payment.accepted',
      }),
    ).toEqual({
      level: 'info',
      message: 'payment accepted',
      logger: 'checkout.http',
      ts: '2026-11-21T04:15:27.123456789Z',
      extra: {
        logger: 'checkout.http',
        module: null,
        function: null,
        line: null,
        path: null,
        extra: { 'http.route': '/pay', 'order.id': 42, retried: false },
        stack_info: null,
        exception: null,
      },
      observed_ts: '2026-11-21T04:15:27.124Z',
      severity_number: 9,
      trace_id: TRACE_ID,
      span_id: SPAN_ID,
      event_name: 'payment.accepted',
    });
  });

  it('writes ts with 3, 6 or 9 fractional digits, zero-padded', () => {
    expect(serialize({ hrTime: [1_795_234_527, 5] }).ts).toBe('2026-11-21T04:15:27.000000005Z');
    expect(serialize({ hrTime: [0, 0] }).ts).toBe('1970-01-01T00:00:00.000Z');
  });

  it('takes level from severityNumber over severityText', () => {
    expect(serialize({ severityNumber: 17, severityText: 'INFO' })).toMatchObject({
      level: 'error',
      severity_number: 17,
    });
  });

  it('falls back to severityText, then info, and omits severity_number when absent', () => {
    const fromText = serialize({ severityNumber: undefined, severityText: 'WARN' });
    expect(fromText.level).toBe('warning');
    expect(fromText).not.toHaveProperty('severity_number');
    expect(serialize({ severityNumber: undefined, severityText: undefined }).level).toBe('info');
  });

  it('always sends level, info too, as the service SDKs do', () => {
    expect(serialize({ severityNumber: 9 }).level).toBe('info');
    expect(serialize({ severityNumber: undefined, severityText: 'notice' }).level).toBe('info');
    for (const [severityNumber, level] of [
      [1, 'debug'],
      [13, 'warning'],
      [17, 'error'],
      [21, 'critical'],
    ] as const) {
      expect(serialize({ severityNumber })).toMatchObject({
        level,
        severity_number: severityNumber,
      });
    }
  });

  it('sends an empty message when there is no body', () => {
    expect(serialize({ body: undefined })).toMatchObject({ message: '' });
    expect(serialize({ body: undefined })).not.toHaveProperty('body');
    expect(serialize({ body: null })).toMatchObject({ message: '' });
  });

  it('keeps a string body as the message and sends no structured body', () => {
    const log = serialize({ body: 'line with "quotes"\nand a newline' });
    expect(log.message).toBe('line with "quotes"\nand a newline');
    expect(log).not.toHaveProperty('body');
  });

  it('JSON-encodes a structured body into message and keeps it structured in body', () => {
    const structured = { order: { id: 42, items: ['a', 'b'] }, ok: true };
    const log = serialize({ body: structured });
    expect(log.body).toEqual(structured);
    expect(typeof log.message).toBe('string');
    expect(JSON.parse(log.message as string)).toEqual(structured);
  });

  it('encodes number, boolean and array bodies the same way', () => {
    expect(serialize({ body: 42 })).toMatchObject({ message: '42', body: 42 });
    expect(serialize({ body: false })).toMatchObject({ message: 'false', body: false });
    expect(serialize({ body: [1, 'x'] })).toMatchObject({ message: '[1,"x"]', body: [1, 'x'] });
  });

  it('uses the text of a body that encodes to a JSON string (bytes, Date) as the message', () => {
    expect(serialize({ body: new Uint8Array([104, 105]) })).toMatchObject({
      message: 'aGk=',
      body: 'aGk=',
    });
    expect(serialize({ body: new Date(Date.UTC(2026, 0, 2)) })).toMatchObject({
      message: '2026-01-02T00:00:00.000Z',
      body: '2026-01-02T00:00:00.000Z',
    });
  });

  it('sends no body and an empty message for a function or symbol body', () => {
    for (const value of [() => 1, Symbol('s')]) {
      const log = serialize({ body: value });
      expect(log.message).toBe('');
      expect(log).not.toHaveProperty('body');
    }
  });

  it('uses the instrumentation scope name as logger, per record', () => {
    const parsed = body([
      logRecord({ instrumentationScope: { name: 'a' } }),
      logRecord({ instrumentationScope: { name: 'b' } }),
      logRecord({ instrumentationScope: { name: '' } }),
    ]);
    expect(parsed.logs.map((l) => l.logger)).toEqual(['a', 'b', '']);
  });

  it('leaves routing attributes out of the log attributes', () => {
    expect(
      extraOf({
        attributes: {
          'order.id': 42,
          [ROUTING_ATTRIBUTES.uuid]: UUID,
          [ROUTING_ATTRIBUTES.key]: 'checkout-api',
          [ROUTING_ATTRIBUTES.username]: 'alice',
        },
      }),
    ).toEqual({ 'order.id': 42 });
  });

  it('keeps array and nested attribute values', () => {
    expect(extraOf({ attributes: { tags: ['a', 'b'], nums: [1, 2] } })).toEqual({
      tags: ['a', 'b'],
      nums: [1, 2],
    });
  });

  describe('trace_id and span_id only with a valid span context', () => {
    it.each([
      ['no span context', undefined],
      ['all-zero trace id', { traceId: '0'.repeat(32), spanId: SPAN_ID }],
      ['all-zero span id', { traceId: TRACE_ID, spanId: '0'.repeat(16) }],
      ['short trace id', { traceId: TRACE_ID.slice(1), spanId: SPAN_ID }],
      ['long span id', { traceId: TRACE_ID, spanId: `${SPAN_ID}0` }],
      ['non-hex trace id', { traceId: `${TRACE_ID.slice(0, 31)}g`, spanId: SPAN_ID }],
      ['injection attempt', { traceId: `${TRACE_ID.slice(0, 30)}"}`, spanId: SPAN_ID }],
    ])('%s → omitted', (_, spanContext) => {
      const log = serialize({ spanContext });
      expect(log).not.toHaveProperty('trace_id');
      expect(log).not.toHaveProperty('span_id');
    });
  });

  it('omits observed_ts and event_name when absent', () => {
    const log = serialize({ hrTimeObserved: undefined as never, eventName: undefined });
    expect(log).not.toHaveProperty('observed_ts');
    expect(log).not.toHaveProperty('event_name');
  });

  it('keeps the nanosecond timestamps of consecutive records in different seconds apart', () => {
    const parsed = body([
      logRecord({ hrTime: [1_795_234_527, 999_999_999], hrTimeObserved: [1_795_234_528, 1] }),
      logRecord({ hrTime: [1_795_234_528, 0], hrTimeObserved: [1_795_234_527, 2] }),
    ]);
    expect(parsed.logs.map((l) => [l.ts, l.observed_ts])).toEqual([
      ['2026-11-21T04:15:27.999999999Z', '2026-11-21T04:15:28.000000001Z'],
      ['2026-11-21T04:15:28.000Z', '2026-11-21T04:15:27.000000002Z'],
    ]);
  });
});

describe('values JSON cannot carry never throw', () => {
  const circular: Record<string, unknown> = { name: 'loop' };
  circular.self = circular;
  const throwing = {
    ok: 1,
    get bad(): never {
      throw new Error('getter exploded');
    },
  };
  let deep: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 200; i++) deep = { next: deep };

  const awkward: Record<string, unknown> = {
    big: 12345678901234567890n,
    bytes: new Uint8Array([0, 255, 16]),
    error: new Error('boom', { cause: new Error('root') }),
    date: new Date(Date.UTC(2026, 10, 21, 4, 15, 27)),
    map: new Map<unknown, unknown>([
      ['a', 1],
      [2, 'b'],
    ]),
    set: new Set([1, 'x']),
    circular,
    nan: Number.NaN,
    inf: Number.POSITIVE_INFINITY,
    negInf: Number.NEGATIVE_INFINITY,
    undef: undefined,
    fn: () => 1,
    sym: Symbol('s'),
    throwing,
    deep,
  };

  it('in attributes', () => {
    const attributes = extraOf({ attributes: awkward }) as Record<string, unknown>;
    expect(attributes).toMatchObject({
      big: '12345678901234567890',
      bytes: 'AP8Q',
      error: { name: 'Error', message: 'boom', cause: { name: 'Error', message: 'root' } },
      date: '2026-11-21T04:15:27.000Z',
      map: { a: 1, '2': 'b' },
      set: [1, 'x'],
      circular: { name: 'loop', self: '[Circular]' },
      nan: 'NaN',
      inf: 'Infinity',
      negInf: '-Infinity',
      throwing: '[Unserializable]',
    });
    expect(attributes).not.toHaveProperty('undef');
    expect(attributes).not.toHaveProperty('fn');
    expect(attributes).not.toHaveProperty('sym');
    expect(JSON.stringify(attributes.deep)).toContain('[Truncated]');
  });

  it('in the body, which is also JSON-encoded into message', () => {
    const log = serialize({ body: awkward });
    expect(log.body).toMatchObject({
      big: '12345678901234567890',
      circular: { self: '[Circular]' },
    });
    expect(JSON.parse(log.message as string)).toEqual(log.body);
  });

  it('in the resource attributes', () => {
    const parsed = body([], { 'service.name': 'x', big: 1n, nan: Number.NaN, loop: circular });
    expect(parsed.resource).toEqual({
      'service.name': 'x',
      big: '1',
      nan: 'NaN',
      loop: { name: 'loop', self: '[Circular]' },
    });
  });

  it('in severity_number, which is left out unless it is an OpenTelemetry severity (1-24)', () => {
    for (const severityNumber of [Number.NaN, Number.POSITIVE_INFINITY, 0, 25, 9.5]) {
      const log = serialize({ severityNumber, severityText: 'error' });
      expect(log.level).toBe('error');
      expect(log).not.toHaveProperty('severity_number');
    }
  });
});

describe('observed_ts', () => {
  it('is left out when it equals ts, as the SDK stamps both from one clock reading', () => {
    const serializer = createLogSerializer();
    const same = JSON.parse(
      serializer.record(
        logRecord({ hrTime: [1_795_234_527, 5], hrTimeObserved: [1_795_234_527, 5] }),
      ),
    );
    const differs = JSON.parse(
      serializer.record(
        logRecord({ hrTime: [1_795_234_527, 5], hrTimeObserved: [1_795_234_528, 5] }),
      ),
    );
    expect(same).not.toHaveProperty('observed_ts');
    expect(differs.observed_ts).toBe('2026-11-21T04:15:28.000000005Z');
  });
});

describe("the service SDK's record layout", () => {
  it('sends level, message, logger, ts and extra first, and never an attributes field', () => {
    const log = serialize({ attributes: { 'order.id': 42 } });
    expect(Object.keys(log).slice(0, 5)).toEqual(['level', 'message', 'logger', 'ts', 'extra']);
    expect(log).not.toHaveProperty('attributes');
    expect(Object.keys(log.extra as object)).toEqual([
      'logger',
      'module',
      'function',
      'line',
      'path',
      'extra',
      'stack_info',
      'exception',
    ]);
  });

  it('lifts the code.* attributes into module, function, line and path, each sent once', () => {
    const extra = serialize({
      attributes: {
        'code.function.name': 'chargeCard',
        'code.file.path': '/srv/app/src/payments.ts',
        'code.line.number': 42,
        'code.column.number': 7,
        'order.id': 1,
      },
    }).extra;
    expect(extra).toMatchObject({
      module: 'payments',
      function: 'chargeCard',
      line: 42,
      path: '/srv/app/src/payments.ts',
      extra: { 'code.column.number': 7, 'order.id': 1 },
    });
  });

  it('reads the deprecated code.* names and prefers code.namespace as the module', () => {
    expect(
      serialize({
        attributes: {
          'code.function': 'handle',
          'code.namespace': 'app.http',
          'code.filepath': 'C:\\app\\http.js',
          'code.lineno': '12',
          'code.stacktrace': 'at handle (http.js:12)',
        },
      }).extra,
    ).toMatchObject({
      module: 'app.http',
      function: 'handle',
      line: 12,
      path: 'C:\\app\\http.js',
      stack_info: 'at handle (http.js:12)',
      extra: {},
    });
  });

  it('turns exception.type, message and stacktrace into one traceback string', () => {
    const error = new TypeError('card is null');
    const extra = serialize({
      attributes: {
        'exception.type': 'TypeError',
        'exception.message': 'card is null',
        'exception.stacktrace': error.stack,
        'exception.escaped': false,
      },
    }).extra as Record<string, unknown>;
    expect(extra.exception).toBe(error.stack);
    expect(String(extra.exception)).toMatch(/^TypeError: card is null\n\s+at /);
    expect(extra.extra).toEqual({ 'exception.escaped': false });
  });

  it.each([
    [{ 'exception.type': 'ValueError', 'exception.message': 'bad' }, 'ValueError: bad'],
    [{ 'exception.message': 'bad' }, 'bad'],
    [{ 'exception.type': 'ValueError' }, 'ValueError'],
    [
      { 'exception.type': 'E', 'exception.message': 'm', 'exception.stacktrace': '  at f()' },
      'E: m\n  at f()',
    ],
  ])('exception from %j → %j', (attributes, exception) => {
    expect(serialize({ attributes }).extra).toMatchObject({ exception });
  });

  it('sends an empty extra.extra, not null, for a record without attributes', () => {
    expect(extraOf({ attributes: {} })).toEqual({});
  });
});
