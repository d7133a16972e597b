import { isSeverityNumber } from '../contract/levels.js';
import { VERSION } from '../version.js';
import type { ExportableLogRecord, HrTime } from './otel-types.js';
import { toJsonSafe } from './safe-json.js';
import { isPlainExtra, sdkExtra } from './sdk-extra.js';
import { levelOf } from './severity.js';
import { createTimestampFormatter } from './timestamp.js';

const INVALID_TRACE_ID = '00000000000000000000000000000000';
const INVALID_SPAN_ID = '0000000000000000';

export interface LogSerializer {
  /** One record as the JSON text of an element of the ingest body's `logs` array. */
  record(record: ExportableLogRecord): string;
  /** The batch envelope up to and including `"logs":[`; close it with `]}`. */
  envelopePrefix(resourceUuid: string, resourceJson: string): string;
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
 * Builds the service's JSON ingest body (docs/protocol.md). A record is written by
 * concatenation in wire order: the first five fields are what the service's own SDKs send
 * (`level`, `message`, `logger`, `ts`, `extra`), the rest reslog's, which a service that does
 * not know them ignores (docs/protocol.md, "Request body"); absent ones are left out. Strings are
 * quoted by `JSON.stringify`; the fixed parts (the level names, the time, `extra`'s nulls)
 * need no quoting. Measured against one `JSON.stringify` of the whole record object: 0.45
 * against 1.05 µs per record of bench scenario 7 (docs/performance.md, scenario 7),
 * mostly `extra`'s eight keys, of which six are usually `null`. Values JSON cannot carry go
 * through {@link toJsonSafe}. A serializer keeps small caches (current second, current
 * scope), so use one per exporter.
 */
export function createLogSerializer(): LogSerializer {
  // Two formatters: each keeps its own cached second, and the two times often differ.
  const formatTime = createTimestampFormatter();
  const formatObserved = createTimestampFormatter();
  let lastLogger = '';
  let lastLoggerJson = '""';

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
      const logger = record.instrumentationScope?.name ?? '';
      if (logger !== lastLogger) {
        lastLogger = logger;
        lastLoggerJson = JSON.stringify(logger);
      }
      const severity = record.severityNumber;
      const attributes = record.attributes ?? {};
      // The common case, plain attributes and nothing lifted, is written without building
      // `extra` as an object: its six nulls are text.
      const extra = isPlainExtra(attributes)
        ? `{"logger":${lastLoggerJson},"module":null,"function":null,"line":null,"path":null,"extra":${JSON.stringify(attributes)},"stack_info":null,"exception":null}`
        : JSON.stringify(sdkExtra(logger, attributes));
      // Always sent, as the SDKs do: a service may not default a missing level to info.
      let json = `{"level":"${levelOf(severity, record.severityText)}","message":${JSON.stringify(message)},"logger":${lastLoggerJson},"ts":"${formatTime(record.hrTime)}","extra":${extra}`;
      if (isSeverityNumber(severity)) json += `,"severity_number":${severity}`;
      const span = record.spanContext;
      if (
        span !== undefined &&
        isHexId(span.traceId, 32) &&
        isHexId(span.spanId, 16) &&
        span.traceId !== INVALID_TRACE_ID &&
        span.spanId !== INVALID_SPAN_ID
      ) {
        json += `,"trace_id":"${span.traceId}","span_id":"${span.spanId}"`;
      }
      // Left out when it equals ts (the SDK stamps both from one clock reading unless the
      // app passes its own timestamp): the service reads an absent observed_ts as ts.
      if (!sameTime(record.hrTimeObserved, record.hrTime)) {
        json += `,"observed_ts":"${formatObserved(record.hrTimeObserved)}"`;
      }
      if (typeof record.eventName === 'string' && record.eventName) {
        json += `,"event_name":${JSON.stringify(record.eventName)}`;
      }
      if (structured !== undefined) json += `,"body":${JSON.stringify(structured)}`;
      return `${json}}`;
    },

    envelopePrefix(resourceUuid, resourceJson) {
      return `{"resource_id":"${resourceUuid}","sdk":"reslog","sdk_version":"${VERSION}","resource":${resourceJson},"logs":[`;
    },
  };
}
