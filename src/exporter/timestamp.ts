import type { HrTime } from './otel-types.js';

/** What a time outside the range of `Date` is sent as. */
const EPOCH = '1970-01-01T00:00:00.000Z';

/**
 * Formats OpenTelemetry `HrTime` as RFC 3339 with the fewest of 3, 6 or 9 fractional digits
 * that keep every nanosecond: a time taken from `Date.now()` (the SDK's default) is
 * `…:27.123Z` as `toISOString` writes it, not `…:27.123000000Z`. The date-and-seconds part is
 * cached: records in a batch mostly share their second, so the common case is one comparison
 * and one concatenation instead of a `Date` allocation.
 */
export function createTimestampFormatter(): (time: HrTime) => string {
  let cachedSecond = Number.NaN;
  let cachedPrefix = '';
  return (time) => {
    let seconds = time[0];
    let nanos = time[1];
    if (!Number.isInteger(seconds) || !Number.isInteger(nanos) || nanos < 0 || nanos >= 1e9) {
      // Not a normalised HrTime: move fractional seconds into the nanos, carry whole seconds
      // out of them, drop sub-nanosecond parts. Never form seconds * 1e9: past 2^53 it would
      // round away the nanoseconds.
      const whole = Math.floor(seconds);
      const ns = (seconds - whole) * 1e9 + nanos;
      const carry = Math.floor(ns / 1e9);
      seconds = whole + carry;
      nanos = Math.floor(ns - carry * 1e9);
      if (!Number.isFinite(seconds) || !Number.isFinite(nanos)) {
        seconds = 0;
        nanos = 0;
      }
    }
    if (seconds !== cachedSecond) {
      const date = new Date(seconds * 1000);
      if (Number.isNaN(date.getTime())) return EPOCH;
      cachedPrefix = date.toISOString().slice(0, 19);
      cachedSecond = seconds;
    }
    return `${cachedPrefix}.${fraction(nanos)}Z`;
  };
}

/** Digits of `nanos` (0 ≤ nanos < 1e9) after the decimal point: 3, 6 or 9 of them. */
function fraction(nanos: number): string {
  if (nanos % 1_000_000 === 0) return String(nanos / 1_000_000).padStart(3, '0');
  if (nanos % 1_000 === 0) return String(nanos / 1_000).padStart(6, '0');
  return String(nanos).padStart(9, '0');
}
