/**
 * Numbers a double cannot hold, kept as the text that was sent (docs/receiver.md, "Lossless
 * read-back"): Python sends integers of any size (`2**70`), which `JSON.parse` would round.
 * Such a number is parsed into a `JSON.rawJSON` value, which `JSON.stringify` writes back
 * verbatim, so the stored JSON text of a field is the text that was sent.
 */

/** A `JSON.rawJSON` value: `JSON.stringify` writes `rawJSON` as it is. */
export interface RawJson {
  readonly rawJSON: string;
}

interface JsonWithRaw {
  rawJSON(text: string): RawJson;
  isRawJSON(value: unknown): value is RawJson;
  parse(
    text: string,
    reviver: (key: string, value: unknown, context: { source?: string }) => unknown,
  ): unknown;
}

// Node ≥ 21 (V8's JSON.parse source text access); the TypeScript lib does not know it yet.
const json = JSON as unknown as JsonWithRaw;

export const isRawJson = (value: unknown): value is RawJson => json.isRawJSON(value);

/**
 * Whether a parsed number is not what its text said: beyond ±(2^53 − 1) an integer is
 * rounded, a literal too large for a double is ±Infinity, and `-0` / `-0.0` loses its sign
 * when written back. Other numbers are written back as the same double.
 */
export function isInexact(value: number): boolean {
  if (Number.isSafeInteger(value)) return value === 0 && 1 / value < 0;
  return Number.isInteger(value) || !Number.isFinite(value);
}

/**
 * `JSON.parse` that keeps the text of every number {@link isInexact} would flag, as a
 * `JSON.rawJSON` value. Several times slower than `JSON.parse`: callers parse with it only
 * when a plain parse found such a number.
 */
export function parseExactNumbers(text: string): unknown {
  return json.parse(text, (_key, value, context) =>
    typeof value === 'number' && context.source !== undefined && isInexact(value)
      ? json.rawJSON(context.source)
      : value,
  );
}

/** The number a value stands for: a plain number, or the value of kept number text. */
export function numberValue(value: unknown): unknown {
  return isRawJson(value) ? Number(value.rawJSON) : value;
}

/** Whether a parsed value holds a number {@link isInexact} flags, at any depth. */
function containsInexact(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'number') {
      if (isInexact(current)) return true;
    } else if (current !== null && typeof current === 'object') {
      for (const item of Array.isArray(current) ? current : Object.values(current)) {
        if (item !== null && (typeof item === 'object' || typeof item === 'number')) {
          stack.push(item);
        }
      }
    }
  }
  return false;
}

/**
 * Parses stored JSON text (written by `JSON.stringify`, so kept numbers appear as sent):
 * plainly, and again keeping number text only when that lost something.
 */
export function parseStoredJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return containsInexact(value) ? parseExactNumbers(text) : value;
}
