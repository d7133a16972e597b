import { ExportFailedError, type ReslogError } from '../errors.js';
import type { ExportStats } from './export-stats.js';
import { type ExportResult, ExportResultCode } from './otel-types.js';
import type { DropReason } from './stats-types.js';
import type { ThrottledDiag } from './throttled-diag.js';

/** Collects what one `export()` call dropped, and turns it into the callback's result. */
export interface ExportOutcome {
  /**
   * Counts dropped records in the stats, tells `onDrop` and diag, and remembers them for the
   * result. `failsExport: false` is for records the user's `unmapped: 'drop'` policy drops.
   */
  drop(
    reason: DropReason,
    count: number,
    details: { target?: string; error?: ReslogError; statusCode?: number; failsExport?: boolean },
  ): void;
  result(): ExportResult;
}

export function createExportOutcome(stats: ExportStats, diag: ThrottledDiag): ExportOutcome {
  const lost: Partial<Record<DropReason, number>> = {};
  const causes: ReslogError[] = [];
  let failed = false;

  return {
    drop(reason, count, { target, error, statusCode, failsExport = true }) {
      if (count <= 0) return;
      stats.dropped(reason, count, target, error, statusCode);
      const where = target ? ` for ${target}` : '';
      diag.warn(
        `${reason}${where}`,
        `dropped ${count} record(s)${where} (${reason})${error ? `: ${error.message}` : ''}`,
      );
      if (!failsExport) return;
      failed = true;
      lost[reason] = (lost[reason] ?? 0) + count;
      if (error && causes.length < 10) causes.push(error);
    },
    result() {
      if (!failed) return { code: ExportResultCode.SUCCESS };
      return { code: ExportResultCode.FAILED, error: new ExportFailedError(lost, causes) };
    },
  };
}
