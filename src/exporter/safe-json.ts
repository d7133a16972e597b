/**
 * Turns any value a log body or attribute may hold into one `JSON.stringify` can write, and
 * never throws. JSON cannot carry some values, so they are mapped (docs/exporter.md, "Values
 * JSON cannot carry"): BigInt → decimal string, Uint8Array → base64 string, Error → {name,
 * message, stack, ...}, Date → ISO string, Map → object, Set → array, NaN/±Infinity →
 * "NaN"/"Infinity"/"-Infinity" (as the OTLP JSON mapping does), circular reference →
 * "[Circular]", undefined, functions and symbols → omitted in objects and `null` in arrays,
 * nesting deeper than 64 → "[Truncated]", a throwing getter or toJSON → "[Unserializable]".
 */

const MAX_DEPTH = 64;

/** A JSON-safe copy of `value`, or `undefined` when the value is omitted. */
export function toJsonSafe(value: unknown): unknown {
  return safe(value, []);
}

/** Encodes a value as JSON text, or returns `undefined` when the value is omitted. */
export function encodeValue(value: unknown): string | undefined {
  const json = toJsonSafe(value);
  return json === undefined ? undefined : JSON.stringify(json);
}

/** Encodes a finite or non-finite number. */
export function encodeNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : `"${value}"`;
}

/** True for values JSON.stringify writes exactly as they are: strings, booleans, finite numbers. */
export function isJsonPrimitive(value: unknown): boolean {
  const type = typeof value;
  return type === 'string' || type === 'boolean' || (type === 'number' && Number.isFinite(value));
}

function safe(value: unknown, ancestors: object[]): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.includes(object)) return '[Circular]';
  if (ancestors.length >= MAX_DEPTH) return '[Truncated]';
  ancestors.push(object);
  try {
    return safeObject(object, ancestors);
  } catch {
    // A throwing getter, toJSON or proxy trap must not take the export down.
    return '[Unserializable]';
  } finally {
    ancestors.pop();
  }
}

function safeObject(object: object, ancestors: object[]): unknown {
  if (Array.isArray(object)) return safeArray(object, ancestors);
  if (ArrayBuffer.isView(object)) {
    return Buffer.from(object.buffer, object.byteOffset, object.byteLength).toString('base64');
  }
  if (object instanceof ArrayBuffer) return Buffer.from(object).toString('base64');
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
  if (object instanceof Error) return safeError(object, ancestors);
  if (object instanceof Map) {
    const entries: [string, unknown][] = [];
    for (const [k, v] of object) entries.push([typeof k === 'string' ? k : String(k), v]);
    return safeEntries(entries, ancestors);
  }
  if (object instanceof Set) return safeArray([...object], ancestors);
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return safe(toJSON.call(object), ancestors);
  return safeEntries(Object.entries(object), ancestors);
}

function safeArray(items: readonly unknown[], ancestors: object[]): unknown[] {
  const out: unknown[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) out[i] = safe(items[i], ancestors) ?? null;
  return out;
}

function safeEntries(
  entries: readonly [string, unknown][],
  ancestors: object[],
): Record<string, unknown> {
  // A null-prototype object: a "__proto__" key stays data instead of setting a prototype.
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, item] of entries) {
    const json = safe(item, ancestors);
    if (json !== undefined) out[key] = json;
  }
  return out;
}

function safeError(error: Error, ancestors: object[]): Record<string, unknown> {
  const entries: [string, unknown][] = [
    ['name', error.name],
    ['message', error.message],
    ['stack', error.stack],
  ];
  for (const [key, item] of Object.entries(error)) {
    if (key !== 'name' && key !== 'message' && key !== 'stack') entries.push([key, item]);
  }
  // `cause` set through the constructor is not enumerable, so Object.entries misses it.
  if (error.cause !== undefined && !entries.some(([key]) => key === 'cause')) {
    entries.push(['cause', error.cause]);
  }
  return safeEntries(entries, ancestors);
}
