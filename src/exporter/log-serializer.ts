import { VERSION } from '../version.js';
import type { ExportableLogRecord, HrTime } from './otel-types.js';
import { toJsonSafe } from './safe-json.js';
import { type SdkExtra, sdkExtra } from './sdk-extra.js';
import { isSeverityNumber, levelOf } from './severity.js';
import { createTimestampFormatter } from './timestamp.js';

const INVALID_TRACE_ID = '00000000000000000000000000000000';
const INVALID_SPAN_ID = '0000000000000000';

export interface LogSerializer {
  /** One record as the JSON text of an element of the ingest body's `logs` array. */
  record(record: ExportableLogRecord): string;
  /** The batch envelope up to and including `"logs":[`; close it with `]}`. */
  envelopePrefix(resourceUuid: string, resourceJson: string): string;
}

/**
 * One element of `logs`, fields in wire order; `undefined` fields are left out. The first five
 * are what the service's own SDKs send; the rest are reslog's, which a service that does not
 * know them ignores (docs/protocol.md, "Records").
 */
interface LogJson {
  level: string;
  message: string;
  logger: string;
  ts: string;
  extra: SdkExtra;
  severity_number: number | undefined;
  trace_id: string | undefined;
  span_id: string | undefined;
  observed_ts: string | undefined;
  event_name: string | undefined;
  body: unknown;
}

function sameTime(a: HrTime | undefined, b: HrTime): boolean {
  return a === undefined || a === b || (a[0] === b[0] && a[1] === b[1]);
}

/** Lower-case hex of the given length: W3C trace context ids as the SDK renders them. */
function isHexId(id: unknown, length: number): id is string {
  if (typeof id !== 'string' || id.length !== length) return false;
  for (let i = 0; i < length; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/**
 * Builds the service's JSON ingest body (docs/protocol.md). Each record becomes one object of a
 * fixed shape written by one native `JSON.stringify` call: measured faster than string
 * concatenation, and its flat result is cheap to measure and join (bench/). Values JSON
 * cannot carry go through {@link toJsonSafe}. A serializer keeps small caches (current
 * second, current scope), so use one per exporter.
 */
export function createLogSerializer(): LogSerializer {
  // Two formatters: each keeps its own cached second, and the two times often differ.
  const formatTime = createTimestampFormatter();
  const formatObserved = createTimestampFormatter();

  return {
    record(record) {
      const body = record.body;
      let message: string;
      let structured: unknown;
      if (typeof body === 'string') {
        message = body;
      } else if (body === undefined || body === null) {
        message = '';
      } else {
        structured = toJsonSafe(body);
        // A body that becomes a JSON string (Date, bytes) is its own message text.
        message =
          structured === undefined
            ? ''
            : typeof structured === 'string'
              ? structured
              : JSON.stringify(structured);
      }
      const span = record.spanContext;
      const traced =
        span !== undefined &&
        isHexId(span.traceId, 32) &&
        isHexId(span.spanId, 16) &&
        span.traceId !== INVALID_TRACE_ID &&
        span.spanId !== INVALID_SPAN_ID;
      const severity = record.severityNumber;
      const logger = record.instrumentationScope?.name ?? '';
      const log: LogJson = {
        // Always sent, as the SDKs do: a service may not default a missing level to info.
        level: levelOf(severity, record.severityText),
        message,
        logger,
        ts: formatTime(record.hrTime),
        extra: sdkExtra(logger, record.attributes ?? {}),
        severity_number: isSeverityNumber(severity) ? severity : undefined,
        trace_id: traced ? span.traceId : undefined,
        span_id: traced ? span.spanId : undefined,
        // Left out when it equals ts (the SDK stamps both from one clock reading unless the
        // app passes its own timestamp): the service reads an absent observed_ts as ts.
        observed_ts: sameTime(record.hrTimeObserved, record.hrTime)
          ? undefined
          : formatObserved(record.hrTimeObserved),
        event_name:
          typeof record.eventName === 'string' && record.eventName ? record.eventName : undefined,
        body: structured,
      };
      return JSON.stringify(log);
    },

    envelopePrefix(resourceUuid, resourceJson) {
      return `{"resource_id":"${resourceUuid}","sdk":"reslog","sdk_version":"${VERSION}","resource":${resourceJson},"logs":[`;
    },
  };
}
