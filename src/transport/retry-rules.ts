/** Which answers are worth another attempt, and how long to wait first. */

/** IMF-fixdate, RFC 850 and asctime forms of an HTTP-date (RFC 9110 §5.6.7). */
const HTTP_DATE = /^[A-Za-z]{3,9},? [\dA-Za-z -]+ \d\d:\d\d:\d\d( GMT| \d{4})$/;

/** 429 and the gateway/overload statuses; every other 4xx/5xx is permanent (docs/exporter.md). */
export function isRetryableStatus(statusCode: number): boolean {
  return statusCode === 429 || statusCode === 502 || statusCode === 503 || statusCode === 504;
}

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Returns milliseconds
 * from `now`, never negative, or `undefined` when the header is absent or unreadable.
 */
export function parseRetryAfter(
  header: string | string[] | undefined,
  now: number,
): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (/^\d+\.\d+$/.test(value)) return Math.ceil(Number(value) * 1000);
  // Date.parse alone would read garbage such as "-1" or "x 5" as a date in 2001 (V8 is lenient).
  if (!HTTP_DATE.test(value)) return undefined;
  // asctime carries no zone; HTTP dates are always GMT.
  const date = Date.parse(value.endsWith('GMT') ? value : `${value} GMT`);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export interface BackoffPolicy {
  readonly initialMillis: number;
  readonly maxMillis: number;
  readonly multiplier: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  initialMillis: 250,
  maxMillis: 5_000,
  multiplier: 2,
};

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so retries
 * from many processes spread out yet never hammer with a zero delay.
 * @param retry 0 for the first retry
 * @param random a number in [0, 1)
 */
export function backoffMillis(retry: number, random: number, policy = DEFAULT_BACKOFF): number {
  const step = Math.min(policy.maxMillis, policy.initialMillis * policy.multiplier ** retry);
  return Math.round(step / 2 + (step / 2) * random);
}
