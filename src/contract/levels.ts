/**
 * The service's log levels (docs/protocol.md, "Levels"): the six names the exporter sends and
 * the receiver ranks, their ranks, the aliases both sides take, and the level of an
 * OpenTelemetry severity number. What each side adds stays on its side: the exporter's
 * severity texts and its `alert` rule (src/exporter/severity.ts), the receiver's names kept as
 * sent, `level N` and `notset` (src/receiver/ingest/levels.ts).
 */

/** The canonical level names, lowest first. */
export const LEVELS = ['debug', 'info', 'warning', 'error', 'alert', 'critical'] as const;
export type Level = (typeof LEVELS)[number];

/**
 * Ranks as the service's SDKs order levels: Python's `logging` numbers, with `alert` between
 * `error` and `critical` at 45.
 */
export const LEVEL_RANKS: Readonly<Record<Level, number>> = Object.freeze({
  debug: 10,
  info: 20,
  warning: 30,
  error: 40,
  alert: 45,
  critical: 50,
});

/** Other names of canonical levels, lower case; both sides read them as the level. */
export const LEVEL_ALIASES: Readonly<Record<string, Level>> = Object.freeze({
  trace: 'debug',
  warn: 'warning',
  fatal: 'critical',
});

/** An OpenTelemetry severity number: an integer 1–24 (0 means unspecified). */
export function isSeverityNumber(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 24;
}

/**
 * The level of an OpenTelemetry severity number: 1–8 debug, 9–12 info, 13–16 warning,
 * 17–20 error, 21–24 critical; `undefined` for anything else. OpenTelemetry has no number
 * for `alert`.
 */
export function levelOfSeverityNumber(severityNumber: unknown): Level | undefined {
  if (!isSeverityNumber(severityNumber)) return undefined;
  if (severityNumber <= 8) return 'debug';
  if (severityNumber <= 12) return 'info';
  if (severityNumber <= 16) return 'warning';
  if (severityNumber <= 20) return 'error';
  return 'critical';
}
