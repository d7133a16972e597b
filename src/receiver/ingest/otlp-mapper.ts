import type { IngestRecordError } from '../../contract/ingest-answer.js';
import { LEVEL_RANKS, type Level, levelOfSeverityNumber } from '../../contract/levels.js';
import type { NewLog } from '../store/log-store.js';
import type { IngestBatch } from './ingest-body.js';
import { parseLevel } from './levels.js';
import { isStorableNanos } from './timestamps.js';

/** OTLP/JSON AnyValue (opentelemetry-proto `common.proto`, JSON mapping). */
interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number | string;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: string;
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}
interface OtlpLogRecord {
  timeUnixNano?: string | number;
  observedTimeUnixNano?: string | number;
  severityNumber?: number;
  severityText?: string;
  body?: AnyValue;
  attributes?: KeyValue[];
  traceId?: string;
  spanId?: string;
  eventName?: string;
}

/** A plain JSON value of an AnyValue. 64-bit ints beyond 2^53 stay decimal strings. */
export function fromAnyValue(value: AnyValue | undefined): unknown {
  if (!value || typeof value !== 'object') return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) {
    // Only a number or a decimal string is an int64; an object could not even be converted.
    if (typeof value.intValue !== 'number' && typeof value.intValue !== 'string') return null;
    const n = Number(value.intValue);
    return Number.isSafeInteger(n) ? n : String(value.intValue);
  }
  if (value.doubleValue !== undefined) {
    // proto3 JSON may send a double as a string; "NaN" and "Infinity" stay strings (JSON
    // numbers cannot hold them).
    const double = value.doubleValue;
    return typeof double === 'string' && Number.isFinite(Number(double)) ? Number(double) : double;
  }
  if (value.arrayValue !== undefined) {
    const values = value.arrayValue?.values;
    return Array.isArray(values) ? values.map(fromAnyValue) : [];
  }
  if (value.kvlistValue !== undefined) return fromKeyValues(value.kvlistValue?.values);
  if (value.bytesValue !== undefined) return value.bytesValue;
  return null;
}

export function fromKeyValues(values: KeyValue[] | undefined): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  // Bodies are untrusted JSON: anything but an array of key-values is no attributes.
  for (const kv of Array.isArray(values) ? values : []) {
    if (typeof kv?.key === 'string' && kv.key !== '__proto__')
      result[kv.key] = fromAnyValue(kv.value);
  }
  return result;
}

function nanos(value: string | number | undefined): bigint | null {
  if (value === undefined || value === null) return null;
  try {
    const n = BigInt(typeof value === 'number' ? Math.trunc(value) : value);
    return n > 0n && isStorableNanos(n) ? n : null;
  } catch {
    return null;
  }
}

function hex(value: string | undefined, length: number): string | null {
  if (typeof value !== 'string' || value.length !== length || !/^[0-9a-fA-F]+$/.test(value)) {
    return null;
  }
  const lower = value.toLowerCase();
  return /^0+$/.test(lower) ? null : lower;
}

export interface OtlpBatch {
  batch: IngestBatch;
  logs: NewLog[];
  errors: IngestRecordError[];
}

/**
 * Turns an `ExportLogsServiceRequest` into stored logs of the same shape as the JSON ingest:
 * string bodies become `message`, other bodies are kept in `body` (and rendered as the
 * message), `scope.name` is the `logger`. One resource per request is stored as the batch
 * resource; records under other `resourceLogs` keep theirs in `unknown_fields.otel_resource`.
 */
export function fromOtlp(request: unknown, receivedNs: bigint): OtlpBatch[] {
  const resourceLogs = (request as { resourceLogs?: unknown })?.resourceLogs;
  if (!Array.isArray(resourceLogs)) return [];
  let index = 0;
  return resourceLogs.map((entry) => {
    const resource = fromKeyValues(entry?.resource?.attributes);
    const logs: NewLog[] = [];
    const errors: IngestRecordError[] = [];
    for (const scopeLogs of Array.isArray(entry?.scopeLogs) ? entry.scopeLogs : []) {
      const scope = scopeLogs?.scope ?? {};
      for (const record of (Array.isArray(scopeLogs?.logRecords)
        ? scopeLogs.logRecords
        : []) as OtlpLogRecord[]) {
        const i = index++;
        if (!record || typeof record !== 'object') {
          errors.push({ index: i, code: 'invalid_record', message: 'logRecord must be an object' });
          continue;
        }
        const body = fromAnyValue(record.body);
        const severity = Number.isInteger(record.severityNumber)
          ? (record.severityNumber as number)
          : null;
        const level: Level =
          levelOfSeverityNumber(severity) ||
          (typeof record.severityText === 'string' ? parseLevel(record.severityText) : undefined) ||
          'info';
        const unknownFields: Record<string, unknown> = {};
        if (record.severityText) unknownFields.severity_text = record.severityText;
        if (scope.version) unknownFields.scope_version = scope.version;
        logs.push({
          tsNs: nanos(record.timeUnixNano) ?? nanos(record.observedTimeUnixNano) ?? receivedNs,
          level,
          levelRank: LEVEL_RANKS[level],
          severityNumber: severity !== null && severity >= 0 && severity <= 24 ? severity : null,
          message: typeof body === 'string' ? body : body === null ? '' : JSON.stringify(body),
          logger: typeof scope.name === 'string' ? scope.name : null,
          attributes: fromKeyValues(record.attributes),
          extra: undefined,
          body: typeof body === 'string' || body === null ? undefined : body,
          traceId: hex(record.traceId, 32),
          spanId: hex(record.spanId, 16),
          observedTsNs: nanos(record.observedTimeUnixNano),
          eventName:
            typeof record.eventName === 'string' && record.eventName !== ''
              ? record.eventName
              : null,
          recordId: null,
          unknownFields,
        });
      }
    }
    const sdk = resource['telemetry.sdk.name'];
    const sdkVersion = resource['telemetry.sdk.version'];
    return {
      batch: {
        resource,
        sdk: typeof sdk === 'string' ? `otlp:${sdk}` : 'otlp',
        sdkVersion: typeof sdkVersion === 'string' ? sdkVersion : null,
        records: [],
        envelopeExtra: {},
      },
      logs,
      errors,
    };
  });
}
