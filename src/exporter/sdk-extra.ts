import type { SdkExtra } from '../contract/ingest-body.js';
import { ROUTING_ATTRIBUTES } from '../contract/routing-attributes.js';
import { isJsonPrimitive, toJsonSafe } from './safe-json.js';

/**
 * Attributes lifted into fields of `extra`: OpenTelemetry's `code.*` and `exception.*`
 * semantic conventions, the current names and the deprecated ones instrumentations still send.
 */
const LIFTED = new Set([
  'code.function.name',
  'code.function',
  'code.namespace',
  'code.file.path',
  'code.filepath',
  'code.line.number',
  'code.lineno',
  'code.stacktrace',
  'exception.type',
  'exception.message',
  'exception.stacktrace',
]);

const R = 'r'.charCodeAt(0);
const C = 'c'.charCodeAt(0);
const E = 'e'.charCodeAt(0);

/**
 * True for a key that must not be copied into `extra.extra` as it is: a routing attribute or
 * one lifted into a field. Three character compares for nearly every other key.
 */
function isSetAside(key: string): boolean {
  const first = key.charCodeAt(0);
  if (first === R) {
    return (
      key === ROUTING_ATTRIBUTES.uuid ||
      key === ROUTING_ATTRIBUTES.key ||
      key === ROUTING_ATTRIBUTES.username
    );
  }
  return (first === C || first === E) && LIFTED.has(key);
}

/** `{"k":v,...}` of resource attributes, without the routing attributes. */
export function encodeResourceAttributes(attributes: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(copyAttributes(attributes, isRoutingAttribute));
}

function isRoutingAttribute(key: string): boolean {
  return key.charCodeAt(0) === R && isSetAside(key);
}

/**
 * True when `extra.extra` is the attributes object itself and every lifted field is `null`:
 * no key is set aside and every value is a string, boolean, finite number or an array of
 * those. The common case, which the serializer writes without building {@link SdkExtra}.
 */
export function isPlainExtra(attributes: Readonly<Record<string, unknown>>): boolean {
  try {
    for (const key in attributes) {
      if (isSetAside(key)) return false;
      const value = attributes[key];
      if (!(isJsonPrimitive(value) || isPrimitiveArray(value))) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds `extra` in the layout of the service's own SDKs (docs/protocol.md, "`extra` (SDK)")
 * from a record's attributes and its logger (instrumentation scope) name. The attributes a
 * field is made from are left out of `extra.extra`, so each value is sent once.
 */
export function sdkExtra(logger: string, attributes: Readonly<Record<string, unknown>>): SdkExtra {
  let own: Record<string, unknown> | undefined = attributes;
  let liftedAny = false;
  try {
    for (const key in attributes) {
      if (isSetAside(key)) {
        liftedAny = true;
        own = undefined;
      } else if (own !== undefined) {
        const value = attributes[key];
        if (!(isJsonPrimitive(value) || isPrimitiveArray(value))) own = undefined;
      }
    }
  } catch {
    own = undefined;
  }
  // The common case, plain attributes and nothing to lift, sends the object itself: no copy.
  if (own === undefined) own = copyAttributes(attributes, isSetAside);
  const extra: SdkExtra = {
    logger,
    module: null,
    function: null,
    line: null,
    path: null,
    extra: own,
    stack_info: null,
    exception: null,
  };
  if (liftedAny) liftFields(extra, attributes);
  return extra;
}

function liftFields(extra: SdkExtra, attributes: Readonly<Record<string, unknown>>): void {
  const read = (key: string): unknown => {
    try {
      return attributes[key];
    } catch {
      return undefined;
    }
  };
  extra.function = text(read('code.function.name') ?? read('code.function'));
  extra.path = text(read('code.file.path') ?? read('code.filepath'));
  extra.line = lineNumber(read('code.line.number') ?? read('code.lineno'));
  // The service's SDKs send the module a record came from (Python: the file name without its
  // extension); OpenTelemetry has `code.namespace` for it, else the file name says it.
  extra.module = text(read('code.namespace')) ?? moduleOf(extra.path);
  extra.stack_info = text(read('code.stacktrace'));
  extra.exception = traceback(
    text(read('exception.type')),
    text(read('exception.message')),
    text(read('exception.stacktrace')),
  );
}

/**
 * One traceback string as the SDKs send it. A JavaScript stack already starts with
 * `Type: message`; a stack without that header gets it, and no stack gives the header alone.
 */
export function traceback(
  type: string | null,
  message: string | null,
  stack: string | null,
): string | null {
  const header = type && message !== null ? `${type}: ${message}` : (type ?? message);
  if (stack === null) return header;
  if (header === null || stack.includes(header) || (type !== null && stack.includes(type))) {
    return stack;
  }
  return `${header}\n${stack}`;
}

function moduleOf(path: string | null): string | null {
  if (!path) return null;
  const file = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = file.lastIndexOf('.');
  return (dot > 0 ? file.slice(0, dot) : file) || null;
}

function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (isJsonPrimitive(value) || typeof value === 'bigint') return String(value);
  const json = toJsonSafe(value);
  return json === undefined ? null : JSON.stringify(json);
}

function lineNumber(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** OpenTelemetry's homogeneous attribute arrays, written by JSON.stringify as they are. */
function isPrimitiveArray(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (item !== null && !isJsonPrimitive(item)) return false;
  return true;
}

/** A JSON-safe copy of the attributes without the keys `skip` names. */
function copyAttributes(
  attributes: Readonly<Record<string, unknown>>,
  skip: (key: string) => boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  let keys: string[];
  try {
    keys = Object.keys(attributes);
  } catch {
    return out;
  }
  for (const key of keys) {
    if (skip(key)) continue;
    let value: unknown;
    try {
      value = attributes[key];
    } catch {
      value = '[Unserializable]';
    }
    const json = toJsonSafe(value);
    if (json !== undefined) out[key] = json;
  }
  return out;
}
