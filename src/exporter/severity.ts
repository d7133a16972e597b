import {
  LEVEL_ALIASES,
  LEVEL_RANKS,
  LEVELS,
  type Level,
  levelOfSeverityNumber,
} from '../contract/levels.js';

/**
 * Severity texts the exporter maps onto the six levels (docs/protocol.md, "Levels"): the
 * level names and aliases of the contract, plus the syslog and log4j spellings loggers send.
 * Only the exporter narrows names to six: the receiver keeps any other name as sent.
 */
const BY_TEXT: Readonly<Record<string, Level>> = {
  ...Object.fromEntries(LEVELS.map((level) => [level, level])),
  ...LEVEL_ALIASES,
  information: 'info',
  notice: 'info',
  err: 'error',
  crit: 'critical',
  emergency: 'critical',
  emerg: 'critical',
};

/**
 * Level from the OpenTelemetry severity number (src/contract/levels.ts), else from the
 * severity text, else `info`. OpenTelemetry has no number for `alert`, so a severity text of
 * `alert` (winston's syslog level, say) is kept when the number is absent or in the error or
 * fatal range.
 */
export function levelOf(
  severityNumber: number | undefined,
  severityText: string | undefined,
): Level {
  const byNumber = levelOfSeverityNumber(severityNumber);
  if (byNumber !== undefined) {
    return (byNumber === 'error' || byNumber === 'critical') && isAlertText(severityText)
      ? 'alert'
      : byNumber;
  }
  if (severityText) return byText(severityText.trim().toLowerCase()) ?? 'info';
  return 'info';
}

/**
 * The level a lower-case severity text names. An own-property check: a text such as
 * `constructor` or `__proto__` must not read `Object.prototype`.
 */
function byText(lower: string): Level | undefined {
  return Object.hasOwn(BY_TEXT, lower) ? BY_TEXT[lower] : undefined;
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
  const byNumber = levelOfSeverityNumber(severityNumber);
  if (byNumber === undefined) return LEVEL_RANKS.critical;
  return byNumber === 'error' ? LEVEL_RANKS.alert : LEVEL_RANKS[byNumber];
}

/**
 * The least rank a record needs to be sent, from a minimum level such as the service SDK's
 * `ALSHIVAL_CLOUD_LEVEL` (`DEBUG|INFO|WARNING|ERROR|ALERT|NONE`, any case; `critical` too).
 * `none` sends nothing. `undefined` for a name that is not a level.
 */
export function parseMinLevel(name: string): number | undefined {
  const lower = name.trim().toLowerCase();
  if (lower === 'none') return Number.POSITIVE_INFINITY;
  const level = byText(lower);
  return level === undefined ? undefined : LEVEL_RANKS[level];
}
