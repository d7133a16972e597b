import { MAX_FRACTION_DIGITS, RFC3339_TIMESTAMP } from '../../contract/timestamps.js';

/**
 * Timestamps as the receiver reads and answers them. The wire format, RFC 3339 with up to
 * nanosecond precision, is the contract's (src/contract/timestamps.ts). The receiver keeps every instant as
 * integer nanoseconds since the epoch (a BigInt, stored as SQLite INTEGER for ordering) and
 * answers with the canonical UTC text of that instant with exactly nine fractional digits.
 */

const NS_PER_SECOND = 1_000_000_000n;
/** Instants are stored as signed 64-bit nanoseconds (SQLite INTEGER): 1677-09-21 to 2262-04-11. */
const MIN_NANOS = -(2n ** 63n);
const MAX_NANOS = 2n ** 63n - 1n;

/** Whether nanoseconds since the epoch fit the stored 64-bit integer. */
export function isStorableNanos(nanos: bigint): boolean {
  return nanos >= MIN_NANOS && nanos <= MAX_NANOS;
}

/** `YYYY-MM-DDTHH:MM:SS`: the part of a timestamp that batches of records mostly share. */
const PREFIX_LENGTH = 19;

/**
 * The last prefix parsed and its seconds since the epoch, read as UTC before the zone offset:
 * records of one batch mostly fall into the same second, so most timestamps only need
 * their fraction and zone read (the full parse was ≈ 8 % of the receiver's time, docs/performance.md).
 */
let cachedPrefix = '';
let cachedSeconds = 0;

/** Nanoseconds since the epoch of an RFC 3339 timestamp, or `undefined` when it is not one. */
export function parseTimestamp(text: string): bigint | undefined {
  if (cachedPrefix !== '' && text.startsWith(cachedPrefix)) {
    return withFractionAndZone(text, cachedSeconds);
  }
  const match = RFC3339_TIMESTAMP.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match;
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
  cachedPrefix = text.slice(0, PREFIX_LENGTH);
  cachedSeconds = millis / 1000;
  return withFractionAndZone(text, cachedSeconds);
}

const DIGIT_0 = 0x30;

function digitAt(text: string, index: number): number {
  const digit = text.charCodeAt(index) - DIGIT_0;
  return digit >= 0 && digit <= 9 ? digit : -1;
}

/**
 * The instant of a timestamp whose first 19 characters are a valid date and time worth
 * `seconds` (as UTC): reads `(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})` after them, as RFC3339_TIMESTAMP does.
 */
function withFractionAndZone(text: string, seconds: number): bigint | undefined {
  let index = PREFIX_LENGTH;
  let fraction = 0;
  if (text.charCodeAt(index) === 0x2e /* . */) {
    index++;
    const first = index;
    let digit = digitAt(text, index);
    while (digit >= 0 && index - first < MAX_FRACTION_DIGITS) {
      fraction = fraction * 10 + digit;
      index++;
      digit = digitAt(text, index);
    }
    const digits = index - first;
    if (digits === 0) return undefined;
    fraction *= 10 ** (MAX_FRACTION_DIGITS - digits);
  }
  let offsetMinutes = 0;
  const zone = text.charCodeAt(index);
  if (zone === 0x5a /* Z */ || zone === 0x7a /* z */) {
    if (text.length !== index + 1) return undefined;
  } else if (zone === 0x2b /* + */ || zone === 0x2d /* - */) {
    if (text.length !== index + 6 || text.charCodeAt(index + 3) !== 0x3a /* : */) return undefined;
    const h1 = digitAt(text, index + 1);
    const h2 = digitAt(text, index + 2);
    const m1 = digitAt(text, index + 4);
    const m2 = digitAt(text, index + 5);
    if (h1 < 0 || h2 < 0 || m1 < 0 || m2 < 0) return undefined;
    offsetMinutes = (zone === 0x2d ? -1 : 1) * ((h1 * 10 + h2) * 60 + m1 * 10 + m2);
  } else {
    return undefined;
  }
  const nanos = BigInt(seconds - offsetMinutes * 60) * NS_PER_SECOND + BigInt(fraction);
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
