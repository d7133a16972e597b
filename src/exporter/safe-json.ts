/**
 * JSON encoding of any value a log body or attribute may hold, which never throws. JSON cannot
 * carry some values, so they are mapped (docs/exporter.md, "Values JSON cannot carry"):
 * BigInt → decimal string, Uint8Array → base64 string, Error → {name, message, stack, ...},
 * Date → ISO string, Map → object, Set → array, NaN/±Infinity → "NaN"/"Infinity"/"-Infinity"
 * (as the OTLP JSON mapping does), circular reference → "[Circular]", undefined, functions and
 * symbols → omitted in objects and `null` in arrays, nesting deeper than 64 → "[Truncated]".
 */

const MAX_DEPTH = 64;

/** Encodes a value as JSON text, or returns `undefined` when the value is omitted. */
export function encodeValue(value: unknown): string | undefined {
  return encode(value, []);
}

/** Encodes a finite or non-finite number. */
export function encodeNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : `"${value}"`;
}

function encode(value: unknown, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return encodeNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `"${value.toString()}"`;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (ancestors.includes(object)) return '"[Circular]"';
  if (ancestors.length >= MAX_DEPTH) return '"[Truncated]"';
  ancestors.push(object);
  try {
    return encodeObject(object, ancestors);
  } catch {
    // A throwing getter or toJSON must not take the export down.
    return '"[Unserializable]"';
  } finally {
    ancestors.pop();
  }
}

function encodeObject(object: object, ancestors: object[]): string | undefined {
  if (Array.isArray(object)) return encodeArray(object, ancestors);
  if (ArrayBuffer.isView(object)) {
    return `"${Buffer.from(object.buffer, object.byteOffset, object.byteLength).toString('base64')}"`;
  }
  if (object instanceof ArrayBuffer) return `"${Buffer.from(object).toString('base64')}"`;
  if (object instanceof Date) {
    return Number.isNaN(object.getTime()) ? 'null' : `"${object.toISOString()}"`;
  }
  if (object instanceof Error) return encodeError(object, ancestors);
  if (object instanceof Map) {
    const entries: [string, unknown][] = [];
    for (const [k, v] of object) entries.push([typeof k === 'string' ? k : String(k), v]);
    return encodeEntries(entries, ancestors);
  }
  if (object instanceof Set) return encodeArray([...object], ancestors);
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return encode(toJSON.call(object), ancestors);
  return encodeEntries(Object.entries(object), ancestors);
}

function encodeArray(items: readonly unknown[], ancestors: object[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += encode(items[i], ancestors) ?? 'null';
  }
  return `${out}]`;
}

function encodeEntries(entries: readonly [string, unknown][], ancestors: object[]): string {
  let out = '{';
  let first = true;
  for (const [key, item] of entries) {
    const encoded = encode(item, ancestors);
    if (encoded === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${encoded}`;
    first = false;
  }
  return `${out}}`;
}

function encodeError(error: Error, ancestors: object[]): string {
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
  return encodeEntries(entries, ancestors);
}
