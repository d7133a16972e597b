/**
 * RFC 3339 timestamps with up to nanosecond precision. The receiver keeps every instant as
 * integer nanoseconds since the epoch (a BigInt, stored as SQLite INTEGER for ordering) and
 * answers with the canonical UTC text of that instant with exactly nine fractional digits.
 */

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

const NS_PER_SECOND = 1_000_000_000n;
/** Instants are stored as signed 64-bit nanoseconds (SQLite INTEGER): 1677-09-21 to 2262-04-11. */
const MIN_NANOS = -(2n ** 63n);
const MAX_NANOS = 2n ** 63n - 1n;

/** Whether nanoseconds since the epoch fit the stored 64-bit integer. */
export function isStorableNanos(nanos: bigint): boolean {
  return nanos >= MIN_NANOS && nanos <= MAX_NANOS;
}

/** Nanoseconds since the epoch of an RFC 3339 timestamp, or `undefined` when it is not one. */
export function parseTimestamp(text: string): bigint | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return undefined;
  // 60 is a leap second; like most systems we fold it into the next second.
  if (second > 60) return undefined;
  // Outside the storable range (and Date.UTC reads years 0–99 as 1900–1999): not a valid ts.
  if (year < 1677 || year > 2262) return undefined;
  const millis = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 31 February over to March: reject days the month does not have.
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    offsetMinutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  const seconds = BigInt((millis - offsetMinutes * 60_000) / 1000);
  const nanos = seconds * NS_PER_SECOND + BigInt(fraction.padEnd(9, '0'));
  return isStorableNanos(nanos) ? nanos : undefined;
}

/** `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` of nanoseconds since the epoch. */
export function formatTimestamp(nanos: bigint): string {
  let seconds = nanos / NS_PER_SECOND;
  let fraction = nanos % NS_PER_SECOND;
  if (fraction < 0n) {
    fraction += NS_PER_SECOND;
    seconds -= 1n;
  }
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 19)}.${fraction.toString().padStart(9, '0')}Z`;
}

/** Nanoseconds since the epoch of a millisecond clock reading. */
export function nanosFromMillis(millis: number): bigint {
  return BigInt(Math.trunc(millis)) * 1_000_000n;
}
