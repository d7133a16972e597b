import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSeverityNumber } from '../../src/contract/levels.js';
import { createLogSerializer } from '../../src/exporter/log-serializer.js';
import type { ExportableLogRecord } from '../../src/exporter/otel-types.js';
import { toJsonSafe } from '../../src/exporter/safe-json.js';
import { sdkExtra } from '../../src/exporter/sdk-extra.js';
import { levelOf } from '../../src/exporter/severity.js';
import { createTimestampFormatter } from '../../src/exporter/timestamp.js';

/**
 * The record as the serializer wrote it before it built the text by concatenation: one
 * object in wire order, one `JSON.stringify`. Kept here as the reference the faster
 * serializer must match byte for byte.
 */
function referenceRecord(record: ExportableLogRecord): string {
  const formatTime = createTimestampFormatter();
  const body = record.body;
  let structured: unknown;
  let message = '';
  if (typeof body === 'string') message = body;
  else if (body !== undefined && body !== null) {
    structured = toJsonSafe(body);
    message =
      structured === undefined
        ? ''
        : typeof structured === 'string'
          ? structured
          : JSON.stringify(structured);
  }
  const span = record.spanContext;
  const hex = (id: unknown, length: number) =>
    typeof id === 'string' && new RegExp(`^[0-9a-f]{${length}}$`).test(id) && !/^0+$/.test(id);
  const traced = span !== undefined && hex(span.traceId, 32) && hex(span.spanId, 16);
  const logger = record.instrumentationScope?.name ?? '';
  const observed = record.hrTimeObserved;
  const same =
    observed === undefined ||
    (observed[0] === record.hrTime[0] && observed[1] === record.hrTime[1]);
  return JSON.stringify({
    level: levelOf(record.severityNumber, record.severityText),
    message,
    logger,
    ts: formatTime(record.hrTime),
    extra: sdkExtra(logger, record.attributes ?? {}),
    severity_number: isSeverityNumber(record.severityNumber) ? record.severityNumber : undefined,
    trace_id: traced ? span?.traceId : undefined,
    span_id: traced ? span?.spanId : undefined,
    observed_ts: same ? undefined : createTimestampFormatter()(observed),
    event_name:
      typeof record.eventName === 'string' && record.eventName ? record.eventName : undefined,
    body: structured,
  });
}

const text = fc.string({ unit: 'binary', maxLength: 40 });
const attributeValue = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.oneof(text, fc.integer(), fc.constant(null)), { maxLength: 3 }),
  fc.constant(undefined),
  fc.bigInt(),
);
const attributeKey = fc.oneof(
  text,
  fc.constantFrom(
    'code.function.name',
    'code.file.path',
    'code.line.number',
    'code.namespace',
    'code.stacktrace',
    'exception.type',
    'exception.message',
    'exception.stacktrace',
    'reslog.resource.uuid',
  ),
);
const hrTime = fc.tuple(
  fc.integer({ min: 0, max: 4_000_000_000 }),
  fc.integer({ min: 0, max: 999_999_999 }),
);
const record = fc.record({
  hrTime,
  hrTimeObserved: hrTime,
  severityNumber: fc.option(fc.integer({ min: -1, max: 30 }), { nil: undefined }),
  severityText: fc.option(fc.oneof(text, fc.constantFrom('INFO', 'alert', 'Warn')), {
    nil: undefined,
  }),
  body: fc.oneof(text, fc.constant(undefined), fc.constant(null), fc.jsonValue(), fc.integer()),
  eventName: fc.option(text, { nil: undefined }),
  spanContext: fc.option(
    fc.record({
      traceId: fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), text),
      spanId: fc.oneof(fc.stringMatching(/^[0-9a-f]{16}$/), text),
    }),
    { nil: undefined },
  ),
  resource: fc.constant({ attributes: {} }),
  instrumentationScope: fc.record({ name: text }),
  attributes: fc.dictionary(attributeKey, attributeValue, { maxKeys: 6 }),
});

describe('log serializer', () => {
  it('writes each record byte for byte as one JSON.stringify of the record object would', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 4 }), (records) => {
        // One serializer over several records: its caches (second, scope) must not leak.
        const serializer = createLogSerializer();
        for (const r of records) {
          const written = serializer.record(r as ExportableLogRecord);
          expect(written).toBe(referenceRecord(r as ExportableLogRecord));
          JSON.parse(written);
        }
      }),
      { numRuns: 500 },
    );
  });
});
