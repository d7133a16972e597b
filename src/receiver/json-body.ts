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
  /** SHA-256 (hex) of the decompressed bytes: what `Idempotency-Key` replays compare. */
  digest: string;
}

/**
 * Decodes a JSON request body: gzip (inflating at most `maxBytes`, so a gzip bomb is cut off
 * early), then nesting depth (checked on the text, before parsing), then JSON, then removal of
 * `__proto__` keys so that no later copy of the value can reach an object prototype.
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
  const depth = maxNesting(bytes);
  if (depth > limits.maxDepth) {
    throw badRequest(
      `JSON nesting depth ${depth} exceeds ${limits.maxDepth}`,
      ReceiverErrorCodes.NESTING_TOO_DEEP,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw badRequest(`request body is not valid JSON: ${(error as Error).message}`);
  }
  removeProtoKeys(value);
  return { value, digest: createHash('sha256').update(bytes).digest('hex') };
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
 * Deletes own `__proto__` keys everywhere in a parsed value. `JSON.parse` makes them plain own
 * properties, but any later `Object.assign` or property-by-property copy would turn them into
 * a prototype change; `constructor` keys are ordinary data and stay.
 */
function removeProtoKeys(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
      continue;
    }
    if (Object.hasOwn(current, PROTO)) Reflect.deleteProperty(current, PROTO);
    for (const key of Object.keys(current)) stack.push((current as Record<string, unknown>)[key]);
  }
}
