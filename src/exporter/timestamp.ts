import type { HrTime } from './otel-types.js';

/**
 * Formats OpenTelemetry `HrTime` as RFC 3339 with nanosecond digits. The date-and-seconds
 * part is cached: records in a batch mostly share their second, so the common case is one
 * comparison and one concatenation instead of a `Date` allocation.
 */
export function createTimestampFormatter(): (time: HrTime) => string {
  let cachedSecond = Number.NaN;
  let cachedPrefix = '';
  return (time) => {
    let seconds = time[0];
    let nanos = time[1];
    if (!Number.isInteger(seconds) || !Number.isInteger(nanos) || nanos < 0 || nanos >= 1e9) {
      // Not a normalised HrTime: carry whole seconds out of the nanos, drop sub-nanosecond parts.
      const total = seconds * 1e9 + nanos;
      seconds = Math.floor(total / 1e9);
      nanos = Number.isFinite(total) ? Math.floor(total - seconds * 1e9) : 0;
      if (!Number.isFinite(seconds)) seconds = 0;
    }
    if (seconds !== cachedSecond) {
      const date = new Date(seconds * 1000);
      if (Number.isNaN(date.getTime())) return new Date(0).toISOString();
      cachedPrefix = date.toISOString().slice(0, 19);
      cachedSecond = seconds;
    }
    const digits = nanos >= 100_000_000 ? String(nanos) : String(nanos).padStart(9, '0');
    return `${cachedPrefix}.${digits}Z`;
  };
}
