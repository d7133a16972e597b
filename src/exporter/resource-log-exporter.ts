import { normalizeConfig } from '../config/normalize-config.js';
import type { ResourceLogExporterOptions } from '../config/options.js';
import { createExportDelegate, type ExportDelegate } from './export-delegate.js';
import { type ExportableLogRecord, type ExportResult, ExportResultCode } from './otel-types.js';
import type { ExporterStats } from './stats-types.js';

/**
 * An OpenTelemetry `LogRecordExporter` that sends each record to the logging-service resource
 * its OpenTelemetry resource maps to. Use it with `BatchLogRecordProcessor`,
 * `SimpleLogRecordProcessor` or the NodeSDK's `logRecordProcessors`. See docs/exporter.md.
 *
 * @throws InvalidOptionError when an option passed in code is invalid, or when no base URL or
 *   API key is given in code or environment.
 */
export class ResourceLogExporter {
  readonly #delegate: ExportDelegate;

  constructor(options: ResourceLogExporterOptions = {}) {
    this.#delegate = createExportDelegate(normalizeConfig(options));
  }

  /**
   * Routes, serializes and compresses the records into their targets' backlogs (and the spool,
   * when there is one), then calls back: SUCCESS once every record is queued (or dropped on
   * purpose as `unmapped`), FAILED with an `ExportFailedError` when records could not be
   * queued. Sending happens in the background (docs/exporter.md, "Delivery").
   */
  export(
    logs: readonly ExportableLogRecord[],
    resultCallback: (result: ExportResult) => void,
  ): void {
    this.#delegate.export(logs).then(
      (result) => safeCall(resultCallback, result),
      (error: unknown) =>
        safeCall(resultCallback, { code: ExportResultCode.FAILED, error: asError(error) }),
    );
  }

  /**
   * Resolves once every backlog is empty (all queued batches acknowledged or dropped), or when
   * `flushTimeoutMillis` has passed with batches still queued (told through `diag`). Never
   * rejects.
   */
  forceFlush(): Promise<void> {
    return this.#delegate.forceFlush();
  }

  /**
   * Keeps sending what is queued for up to `shutdownTimeoutMillis`, then stops: what is left
   * is counted as dropped `shutdown`, or, with a spool, stays on disk for the next start.
   * Then closes connections. Later exports fail with `shutdown`.
   */
  shutdown(): Promise<void> {
    return this.#delegate.shutdown();
  }

  /** Counters since creation: exported, retried, dropped by reason, per target. */
  getStats(): ExporterStats {
    return this.#delegate.stats();
  }
}

function safeCall(callback: (result: ExportResult) => void, result: ExportResult): void {
  try {
    callback(result);
  } catch {
    // The SDK's callback throwing is the SDK's problem; it must not become an unhandled rejection.
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
