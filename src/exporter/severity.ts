/** The service's log levels (DESIGN.md §2). */
export type Level = 'debug' | 'info' | 'warning' | 'error' | 'critical' | 'alert';

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
  critical: 'critical',
  crit: 'critical',
  fatal: 'critical',
  alert: 'alert',
  emergency: 'alert',
};

/**
 * Level from the OpenTelemetry severity number (1–8 debug, 9–12 info, 13–16 warning,
 * 17–20 error, 21–24 critical), else from the severity text, else `info`.
 */
export function levelOf(
  severityNumber: number | undefined,
  severityText: string | undefined,
): Level {
  if (isSeverityNumber(severityNumber)) {
    if (severityNumber <= 8) return 'debug';
    if (severityNumber <= 12) return 'info';
    if (severityNumber <= 16) return 'warning';
    if (severityNumber <= 20) return 'error';
    return 'critical';
  }
  if (severityText) return BY_TEXT[severityText.trim().toLowerCase()] ?? 'info';
  return 'info';
}

/** An OpenTelemetry severity number: an integer 1–24 (0 means unspecified). */
export function isSeverityNumber(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 24;
}
