import { type Level, levelRank } from '../levels.js';
import type { AlertLevel } from '../store/settings-store.js';

interface SummarisedLog {
  level: Level;
  message: string;
  tsNs: bigint;
}

/** How many logs of a batch are at or above a level, and the first such log. */
export interface LogAlertSummary {
  atOrAbove(level: AlertLevel): { count: number; first: SummarisedLog } | undefined;
}

/**
 * One pass over a committed batch, so that each member's threshold is answered in O(1):
 * the alert step after a commit stays cheap however many members a resource has.
 */
export function summariseLogs(logs: readonly SummarisedLog[]): LogAlertSummary | undefined {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  // Index of the first log of each rank: batch order decides "first".
  const firsts = [-1, -1, -1, -1, -1, -1, -1];
  const lowest = levelRank('warning');
  let any = false;
  logs.forEach((log, index) => {
    const rank = levelRank(log.level);
    if (rank < lowest) return;
    any = true;
    counts[rank] = (counts[rank] ?? 0) + 1;
    if (firsts[rank] === -1) firsts[rank] = index;
  });
  if (!any) return undefined;
  return {
    atOrAbove(level) {
      let count = 0;
      let first = -1;
      for (let rank = levelRank(level); rank < counts.length; rank++) {
        count += counts[rank] ?? 0;
        const index = firsts[rank] ?? -1;
        if (index !== -1 && (first === -1 || index < first)) first = index;
      }
      const log = logs[first];
      return count > 0 && log ? { count, first: log } : undefined;
    },
  };
}
