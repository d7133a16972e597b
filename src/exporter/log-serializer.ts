import { VERSION } from '../version.js';
import type { ExportableLogRecord } from './otel-types.js';
import { ROUTING_ATTRIBUTES } from './resource-router.js';
import { encodeValue } from './safe-json.js';
import { isSeverityNumber, levelOf } from './severity.js';
import { createTimestampFormatter } from './timestamp.js';

const INVALID_TRACE_ID = '00000000000000000000000000000000';
const INVALID_SPAN_ID = '0000000000000000';
const R = 'r'.charCodeAt(0);

export interface LogSerializer {
  /** One record as the JSON text of an element of the ingest body's `logs` array. */
  record(record: ExportableLogRecord): string;
  /** The batch envelope up to and including `"logs":[`; close it with `]}`. */
  envelopePrefix(resourceUuid: string, resourceJson: string): string;
}

/** `{"k":v,...}` of resource or log attributes, without the routing attributes. */
export function encodeAttributes(attributes: Readonly<Record<string, unknown>>): string {
  // Fast path: flat string/boolean/finite-number attributes without routing keys (the common
  // case) go through one native JSON.stringify call.
  let simple = true;
  for (const key in attributes) {
    const value = attributes[key];
    const type = typeof value;
    if (
      (type !== 'string' && type !== 'boolean' && !(type === 'number' && Number.isFinite(value))) ||
      isRoutingAttribute(key)
    ) {
      simple = false;
      break;
    }
  }
  if (simple) return JSON.stringify(attributes);
  let out = '{';
  let first = true;
  for (const key in attributes) {
    if (isRoutingAttribute(key)) continue;
    const encoded = encodeValue(attributes[key]);
    if (encoded === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${encoded}`;
    first = false;
  }
  return `${out}}`;
}

/** Lower-case hex of the given length: W3C trace context ids as the SDK renders them. */
function isHexId(id: string, length: number): boolean {
  if (typeof id !== 'string' || id.length !== length) return false;
  for (let i = 0; i < length; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

function isRoutingAttribute(key: string): boolean {
  return (
    key.charCodeAt(0) === R &&
    (key === ROUTING_ATTRIBUTES.uuid ||
      key === ROUTING_ATTRIBUTES.key ||
      key === ROUTING_ATTRIBUTES.username)
  );
}

/**
 * Builds the service's JSON ingest body (DESIGN.md §2) by string concatenation: per record
 * there is no intermediate object, and values JSON cannot carry go through {@link encodeValue}.
 * A serializer keeps small caches (current second, current scope), so use one per exporter.
 */
export function createLogSerializer(): LogSerializer {
  // Two formatters: each keeps its own cached second, and the two times often differ.
  const formatTime = createTimestampFormatter();
  const formatObserved = createTimestampFormatter();
  let lastScope: object | undefined;
  let lastLoggerJson = '""';

  return {
    record(record) {
      const scope = record.instrumentationScope;
      if (scope !== lastScope) {
        lastScope = scope;
        lastLoggerJson = JSON.stringify(scope.name ?? '');
      }
      const severity = record.severityNumber;
      let out = `{"ts":"${formatTime(record.hrTime)}","level":"${levelOf(severity, record.severityText)}"`;
      // Only a real OpenTelemetry severity (1-24); anything else would be refused by the service.
      if (isSeverityNumber(severity)) out += `,"severity_number":${severity}`;

      const body = record.body;
      let structured: string | undefined;
      if (typeof body === 'string') {
        out += `,"message":${JSON.stringify(body)}`;
      } else if (body === undefined || body === null) {
        out += ',"message":""';
      } else {
        structured = encodeValue(body);
        // A body that encodes to a JSON string (Date, bytes) is its own message text.
        const message =
          structured === undefined
            ? '""'
            : structured.charCodeAt(0) === 34
              ? structured
              : JSON.stringify(structured);
        out += `,"message":${message}`;
      }

      out += `,"logger":${lastLoggerJson},"attributes":${encodeAttributes(record.attributes)}`;

      const span = record.spanContext;
      if (
        span !== undefined &&
        isHexId(span.traceId, 32) &&
        isHexId(span.spanId, 16) &&
        span.traceId !== INVALID_TRACE_ID &&
        span.spanId !== INVALID_SPAN_ID
      ) {
        out += `,"trace_id":"${span.traceId}","span_id":"${span.spanId}"`;
      }
      if (record.hrTimeObserved !== undefined)
        out += `,"observed_ts":"${formatObserved(record.hrTimeObserved)}"`;
      if (record.eventName) out += `,"event_name":${JSON.stringify(record.eventName)}`;
      if (structured !== undefined) out += `,"body":${structured}`;
      return `${out}}`;
    },

    envelopePrefix(resourceUuid, resourceJson) {
      return `{"resource_id":"${resourceUuid}","sdk":"reslog","sdk_version":"${VERSION}","resource":${resourceJson},"logs":[`;
    },
  };
}
