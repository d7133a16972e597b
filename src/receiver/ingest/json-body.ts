import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { receiverError } from '../errors.js';
import { isInexact, isRawJson, parseExactNumbers } from './exact-numbers.js';

const PROTO = '__proto__';
const gunzipAsync = promisify(gunzip);

export interface DecodedBody {
  value: unknown;
  /**
   * SHA-256 (hex) of the decompressed bytes: what `Idempotency-Key` replays compare. Only
   * computed when asked for, since only requests with that header need it.
   */
  digest: () => string;
}

/**
 * A record of an ingest body nested deeper than `maxDepth`: it takes the record's place so
 * that the record alone is rejected (`nesting_too_deep`), never the whole request.
 */
export class TooDeepRecord {
  constructor(
    /** Its depth, counting the record as 1 (the walk stops one level past the limit). */
    readonly depth: number,
    readonly maxDepth: number,
  ) {}
}

/**
 * Decodes a JSON request body: gzip (inflating at most `maxBytes`, so a gzip bomb is cut off
 * early), then JSON, then nesting depth and removal of `__proto__` keys (one walk over the
 * parsed value) so that no later copy of the value can reach an object prototype. V8 parses
 * deep nesting without recursion, so the depth can be checked after parsing; a body that is
 * not JSON still reports too deep a nesting first, as when the text was checked before.
 *
 * An ingest body (`ingest`) is checked per record: a record deeper than `maxDepth` (the
 * record counting as 1) is replaced by a {@link TooDeepRecord}; only the envelope outside
 * `logs` being too deep is a 400. When the walk finds a number a double cannot hold
 * (2^70, 1e400, -0), the body is parsed again keeping those numbers' text
 * (docs/receiver.md, "Lossless read-back"); plain bodies pay only the walk they had anyway.
 */
export async function decodeJsonBody(
  raw: Buffer,
  contentEncoding: string | undefined,
  limits: { maxBodyBytes: number; maxDepth: number },
  ingest = false,
): Promise<DecodedBody> {
  let bytes = raw;
  const encoding = contentEncoding?.trim().toLowerCase() ?? 'identity';
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    try {
      bytes = await gunzipAsync(raw, { maxOutputLength: limits.maxBodyBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw receiverError(
          'payload_too_large',
          `request body exceeds ${limits.maxBodyBytes} bytes`,
        );
      }
      throw receiverError('invalid_body', 'request body is not valid gzip');
    }
  } else if (encoding !== 'identity' && encoding !== '') {
    throw receiverError(
      'unsupported_encoding',
      `Content-Encoding "${encoding}" is not supported (use gzip or none)`,
    );
  }
  if (bytes.length === 0) throw receiverError('invalid_body', 'request body is empty');
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    checkDepth(maxNesting(bytes), limits.maxDepth);
    throw receiverError(
      'invalid_body',
      `request body is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (ingest) {
    const walk = new Walk(false);
    value = limitIngestDepth(value, limits.maxDepth, walk);
    if (walk.inexact)
      value = limitIngestDepth(parseExactNumbers(text), limits.maxDepth, new Walk(true));
  } else {
    checkDepth(new Walk(false).run(value, Number.POSITIVE_INFINITY), limits.maxDepth);
  }
  const body = bytes;
  return { value, digest: () => createHash('sha256').update(body).digest('hex') };
}

function checkDepth(depth: number, maxDepth: number): void {
  if (depth > maxDepth) {
    throw receiverError('nesting_too_deep', `JSON nesting depth ${depth} exceeds ${maxDepth}`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Applies `maxDepth` to an ingest body record by record (see {@link decodeJsonBody}) and
 * removes `__proto__` keys; returns the body with too deep records replaced.
 */
function limitIngestDepth(value: unknown, maxDepth: number, walk: Walk): unknown {
  if (!isObject(value)) {
    // Not an object: the envelope check refuses it; only the prototype keys matter here.
    walk.run(value, maxDepth + 1);
    return value;
  }
  if (Object.hasOwn(value, PROTO)) Reflect.deleteProperty(value, PROTO);
  const logs = value.logs;
  if (!Array.isArray(logs)) {
    const depth = walk.run(value, maxDepth + 1);
    if (depth <= maxDepth) return value;
    // `logs` is there but not an array: the envelope is what is too deep.
    if (Object.hasOwn(value, 'logs')) checkDepth(depth, maxDepth);
    // One record (curl): it is the record that is too deep, rejected alone.
    const resourceId = value.resource_id;
    return {
      ...(typeof resourceId === 'string' ? { resource_id: resourceId } : {}),
      logs: [new TooDeepRecord(depth, maxDepth)],
    };
  }
  for (const key of Object.keys(value)) {
    if (key !== 'logs') checkDepth(1 + walk.run(value[key], maxDepth), maxDepth);
  }
  for (let index = 0; index < logs.length; index++) {
    const depth = walk.run(logs[index], maxDepth + 1);
    if (depth > maxDepth) logs[index] = new TooDeepRecord(depth, maxDepth);
  }
  return value;
}

/** Deepest nesting of objects and arrays in JSON text (strings skipped). */
export function maxNesting(bytes: Uint8Array): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return max;
}

/**
 * One walk over parsed values: deletes own `__proto__` keys everywhere and measures nesting
 * depth (objects and arrays; what `maxNesting` reads from the text), and notes whether any
 * number is one a double cannot hold. `JSON.parse` makes `__proto__` keys plain own
 * properties, but any later `Object.assign` or property-by-property copy would turn them
 * into a prototype change; `constructor` keys are ordinary data and stay.
 */
class Walk {
  /** A number {@link isInexact} flags was seen. */
  inexact = false;

  /** `exact`: the value came from `parseExactNumbers`, whose kept numbers are leaves. */
  constructor(private readonly exact: boolean) {}

  /** Depth of `value` (a scalar is 0); stops going deeper once `stopAt` is reached. */
  run(value: unknown, stopAt: number): number {
    if (value === null || typeof value !== 'object') {
      if (typeof value === 'number' && isInexact(value)) this.inexact = true;
      return 0;
    }
    if (this.exact && isRawJson(value)) return 0;
    // Only objects and arrays are pushed, each with its own depth.
    const stack: object[] = [value];
    const depths: number[] = [1];
    let max = 0;
    while (stack.length > 0) {
      const current = stack.pop() as object;
      const depth = depths.pop() as number;
      if (depth > max) max = depth;
      if (depth >= stopAt) continue;
      if (Array.isArray(current)) {
        for (const item of current) this.visit(item, depth, stack, depths);
        continue;
      }
      if (Object.hasOwn(current, PROTO)) Reflect.deleteProperty(current, PROTO);
      for (const key of Object.keys(current)) {
        this.visit((current as Record<string, unknown>)[key], depth, stack, depths);
      }
    }
    return max;
  }

  private visit(item: unknown, depth: number, stack: object[], depths: number[]): void {
    if (item !== null && typeof item === 'object') {
      if (this.exact && isRawJson(item)) return;
      stack.push(item);
      depths.push(depth + 1);
    } else if (typeof item === 'number' && !this.inexact && isInexact(item)) {
      this.inexact = true;
    }
  }
}
