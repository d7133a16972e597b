/** The service's log levels (docs/protocol.md, "Levels"). */
export type Level = 'debug' | 'info' | 'warning' | 'error' | 'alert' | 'critical';

/**
 * Ranks as the service's SDKs order levels: `alert` sits between `error` and `critical`
 * (Python's logging numbers, with ALERT added at 45).
 */
export const LEVEL_RANKS: Readonly<Record<Level, number>> = {
  debug: 10,
  info: 20,
  warning: 30,
  error: 40,
  alert: 45,
  critical: 50,
};

const BY_TEXT: Readonly<Record<string, Level>> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  information: 'info',
  notice: 'info',
  warn: 'warning',
  warning: 'warning',
  error: 'error',
  err: 'error',
  alert: 'alert',
  critical: 'critical',
  crit: 'critical',
  fatal: 'critical',
  emergency: 'critical',
  emerg: 'critical',
};

/**
 * Level from the OpenTelemetry severity number (1–8 debug, 9–12 info, 13–16 warning,
 * 17–20 error, 21–24 critical), else from the severity text, else `info`. OpenTelemetry has no
 * number for `alert`, so a severity text of `alert` (winston's syslog level, say) is kept when
 * the number is absent or in the error or fatal range.
 */
export function levelOf(
  severityNumber: number | undefined,
  severityText: string | undefined,
): Level {
  if (isSeverityNumber(severityNumber)) {
    if (severityNumber <= 8) return 'debug';
    if (severityNumber <= 12) return 'info';
    if (severityNumber <= 16) return 'warning';
    if (severityNumber >= 17 && isAlertText(severityText)) return 'alert';
    if (severityNumber <= 20) return 'error';
    return 'critical';
  }
  if (severityText) return BY_TEXT[severityText.trim().toLowerCase()] ?? 'info';
  return 'info';
}

function isAlertText(text: string | undefined): boolean {
  return text !== undefined && text.length === 5 && text.toLowerCase() === 'alert';
}

/**
 * The highest rank a record with this severity number can have whatever its text (17–24 may
 * be `alert` by their text, see {@link levelOf}); `critical`'s when the number says nothing,
 * since then the text decides.
 */
export function highestRankOf(severityNumber: number | undefined): number {
  if (!isSeverityNumber(severityNumber)) return LEVEL_RANKS.critical;
  if (severityNumber <= 8) return LEVEL_RANKS.debug;
  if (severityNumber <= 12) return LEVEL_RANKS.info;
  if (severityNumber <= 16) return LEVEL_RANKS.warning;
  if (severityNumber <= 20) return LEVEL_RANKS.alert;
  return LEVEL_RANKS.critical;
}

/** An OpenTelemetry severity number: an integer 1–24 (0 means unspecified). */
export function isSeverityNumber(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 24;
}

/**
 * The least rank a record needs to be sent, from a minimum level such as the service SDK's
 * `ALSHIVAL_CLOUD_LEVEL` (`DEBUG|INFO|WARNING|ERROR|ALERT|NONE`, any case; `critical` too).
 * `none` sends nothing. `undefined` for a name that is not a level.
 */
export function parseMinLevel(name: string): number | undefined {
  const lower = name.trim().toLowerCase();
  if (lower === 'none') return Number.POSITIVE_INFINITY;
  const level = BY_TEXT[lower];
  return level === undefined ? undefined : LEVEL_RANKS[level];
}
