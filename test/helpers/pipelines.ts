import { normalizeConfig } from '../../src/config/normalize-config.js';
import type {
  ResourceLogExporterOptions,
  ResourceLogProcessorOptions,
} from '../../src/config/options.js';
import type { ExportableLogRecord } from '../../src/exporter/otel-types.js';
import { createProcessorDelegate } from '../../src/exporter/processor-delegate.js';
import {
  type DropReason,
  type ExporterStats,
  ExportFailedError,
  ResourceLogExporter,
} from '../../src/index.js';

/** What a test drives: `ResourceLogExporter`'s calls, whichever front end is behind them. */
export interface Pipeline {
  export(
    logs: readonly ExportableLogRecord[],
    resultCallback: (result: { code: number; error?: Error }) => void,
  ): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
  getStats(): ExporterStats;
}

/**
 * The two ways records reach the delivery pipeline, for tests that must hold on both
 * (docs/exporter.md, "The processor"): `BatchLogRecordProcessor` + `ResourceLogExporter`
 * (here the exporter alone, as the batch processor calls it), and `ResourceLogProcessor`.
 */
export const PIPELINES = [
  {
    name: 'exporter',
    create: (options: ResourceLogExporterOptions): Pipeline => new ResourceLogExporter(options),
  },
  { name: 'processor', create: processorPipeline },
] as const;

/** Reasons whose drops an export does not fail for (as the exporter's result says). */
const NOT_FAILING = new Set(['unmapped']);

/**
 * `ResourceLogProcessor`'s delegate behind the exporter's calls: `export()` emits each record
 * as the SDK would, closes the open batches, and calls back once they are queued, with FAILED
 * when records were dropped meanwhile (unmapped ones only when `unmapped: 'error'`), as the
 * exporter's result would be.
 */
export function processorPipeline(options: ResourceLogProcessorOptions): Pipeline {
  const config = normalizeConfig(options);
  const delegate = createProcessorDelegate(config);
  return {
    export(logs, resultCallback) {
      const before = delegate.stats().dropped;
      for (const record of logs) delegate.emit(record);
      void delegate.queueOpen().then(() => {
        const lost: Partial<Record<DropReason, number>> = {};
        for (const [reason, count] of Object.entries(delegate.stats().dropped)) {
          const added = (count ?? 0) - (before[reason as DropReason] ?? 0);
          if (added > 0 && (config.unmapped === 'error' || !NOT_FAILING.has(reason))) {
            lost[reason as DropReason] = added;
          }
        }
        resultCallback(
          Object.keys(lost).length > 0
            ? { code: 1, error: new ExportFailedError(lost, []) }
            : { code: 0 },
        );
      });
    },
    forceFlush: () => delegate.forceFlush(),
    shutdown: () => delegate.shutdown(),
    getStats: () => delegate.stats(),
  };
}
