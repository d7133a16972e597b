/**
 * Timestamps on the wire (docs/protocol.md, "Timestamps"): RFC 3339 with up to nanosecond
 * precision and any offset. The two sides share only this: the exporter formats OpenTelemetry
 * times in UTC with 3, 6 or 9 digits (src/exporter/timestamp.ts), the receiver parses any
 * text that matches and normalises it to nanoseconds (src/receiver/ingest/timestamps.ts).
 */

/** Most fractional digits a timestamp may carry: nanoseconds. */
export const MAX_FRACTION_DIGITS = 9;

/**
 * An RFC 3339 date-time: groups year, month, day, hour, minute, second, fraction, zone. A
 * space or lower-case `t`/`z` is allowed, as RFC 3339 § 5.6 permits.
 */
export const RFC3339_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;
