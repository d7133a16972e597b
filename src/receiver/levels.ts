/** The service's log levels (DESIGN.md §2), lowest first. */
export const LEVELS = ['debug', 'info', 'warning', 'error', 'critical', 'alert'] as const;
export type Level = (typeof LEVELS)[number];

const ALIASES: Readonly<Record<string, Level>> = {
  trace: 'debug',
  warn: 'warning',
  fatal: 'critical',
};

/** The level named by `text` (case-insensitive, aliases allowed), or `undefined`. */
export function parseLevel(text: string): Level | undefined {
  const lower = text.trim().toLowerCase();
  if ((LEVELS as readonly string[]).includes(lower)) return lower as Level;
  return ALIASES[lower];
}

/** 1 (debug) … 6 (alert), stored next to each log so `level=` filters are one comparison. */
export function levelRank(level: Level): number {
  return LEVELS.indexOf(level) + 1;
}

/** The level of a stored rank (the inverse of `levelRank`). */
export function levelOfRank(rank: number): Level {
  const level = LEVELS[rank - 1];
  if (level === undefined) throw new Error(`no level has rank ${rank}`);
  return level;
}

/**
 * Level of an OpenTelemetry severity number (1–8 debug, 9–12 info, 13–16 warning,
 * 17–20 error, 21–24 critical), as the exporter maps it.
 */
export function levelOfSeverity(severityNumber: number): Level | undefined {
  if (!Number.isInteger(severityNumber) || severityNumber < 1 || severityNumber > 24) {
    return undefined;
  }
  if (severityNumber <= 8) return 'debug';
  if (severityNumber <= 12) return 'info';
  if (severityNumber <= 16) return 'warning';
  if (severityNumber <= 20) return 'error';
  return 'critical';
}
