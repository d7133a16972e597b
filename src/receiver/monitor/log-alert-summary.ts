import { LEVEL_RANKS } from '../../contract/levels.js';
import { ALERT_LEVELS, type AlertLevel } from '../store/settings-store.js';

interface SummarisedLog {
  /** The level as read back (a custom name such as `level 35` is kept as sent). */
  level: string;
  levelRank: number;
  message: string;
  tsNs: bigint;
}

/** How many logs of a batch are at or above a level, and the first such log. */
export interface LogAlertSummary {
  atOrAbove(level: AlertLevel): { count: number; first: SummarisedLog } | undefined;
}

/**
 * One pass over a committed batch, so that each member's threshold is answered in O(1):
 * the alert step after a commit stays cheap however many members a resource has. Logs
 * count by rank, so `alert` (45) is at or above `error` but below `critical`, and a custom
 * level such as `level 35` counts for a `warning` threshold.
 */
export function summariseLogs(logs: readonly SummarisedLog[]): LogAlertSummary | undefined {
  const thresholds = ALERT_LEVELS.map((level) => LEVEL_RANKS[level]);
  const lowest = Math.min(...thresholds);
  const counts = thresholds.map(() => 0);
  // Index of the first log at or above each threshold: batch order decides "first".
  const firsts = thresholds.map(() => -1);
  let any = false;
  logs.forEach((log, index) => {
    if (log.levelRank < lowest) return;
    any = true;
    thresholds.forEach((rank, t) => {
      if (log.levelRank < rank) return;
      counts[t] = (counts[t] ?? 0) + 1;
      if (firsts[t] === -1) firsts[t] = index;
    });
  });
  if (!any) return undefined;
  return {
    atOrAbove(level) {
      const t = ALERT_LEVELS.indexOf(level);
      const count = counts[t] ?? 0;
      const log = logs[firsts[t] ?? -1];
      return count > 0 && log ? { count, first: log } : undefined;
    },
  };
}
