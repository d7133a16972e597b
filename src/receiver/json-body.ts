import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import {
  badRequest,
  payloadTooLarge,
  ReceiverErrorCodes,
  ReceiverHttpError,
} from './http-errors.js';

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
 * Decodes a JSON request body: gzip (inflating at most `maxBytes`, so a gzip bomb is cut off
 * early), then JSON, then nesting depth and removal of `__proto__` keys (one walk over the
 * parsed value) so that no later copy of the value can reach an object prototype. V8 parses
 * deep nesting without recursion, so the depth can be checked after parsing; a body that is
 * not JSON still reports too deep a nesting first, as when the text was checked before.
 */
export async function decodeJsonBody(
  raw: Buffer,
  contentEncoding: string | undefined,
  limits: { maxBodyBytes: number; maxDepth: number },
): Promise<DecodedBody> {
  let bytes = raw;
  const encoding = contentEncoding?.trim().toLowerCase() ?? 'identity';
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    try {
      bytes = await gunzipAsync(raw, { maxOutputLength: limits.maxBodyBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw payloadTooLarge(limits.maxBodyBytes);
      }
      throw badRequest('request body is not valid gzip');
    }
  } else if (encoding !== 'identity' && encoding !== '') {
    throw new ReceiverHttpError(
      415,
      ReceiverErrorCodes.UNSUPPORTED_ENCODING,
      `Content-Encoding "${encoding}" is not supported (use gzip or none)`,
    );
  }
  if (bytes.length === 0) throw badRequest('request body is empty');
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    checkDepth(maxNesting(bytes), limits.maxDepth);
    throw badRequest(`request body is not valid JSON: ${(error as Error).message}`);
  }
  checkDepth(removeProtoKeys(value), limits.maxDepth);
  const body = bytes;
  return { value, digest: () => createHash('sha256').update(body).digest('hex') };
}

function checkDepth(depth: number, maxDepth: number): void {
  if (depth > maxDepth) {
    throw badRequest(
      `JSON nesting depth ${depth} exceeds ${maxDepth}`,
      ReceiverErrorCodes.NESTING_TOO_DEEP,
    );
  }
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
 * Deletes own `__proto__` keys everywhere in a parsed value and returns its nesting depth
 * (objects and arrays; what `maxNesting` reads from the text). `JSON.parse` makes those
 * keys plain own properties, but any later `Object.assign` or property-by-property copy
 * would turn them into a prototype change; `constructor` keys are ordinary data and stay.
 */
function removeProtoKeys(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  // Only objects and arrays are pushed, each with its own depth.
  const stack: object[] = [value];
  const depths: number[] = [1];
  let max = 0;
  while (stack.length > 0) {
    const current = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth > max) max = depth;
    if (Array.isArray(current)) {
      for (const item of current) {
        if (item !== null && typeof item === 'object') {
          stack.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    if (Object.hasOwn(current, PROTO)) Reflect.deleteProperty(current, PROTO);
    for (const key of Object.keys(current)) {
      const item = (current as Record<string, unknown>)[key];
      if (item !== null && typeof item === 'object') {
        stack.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return max;
}
