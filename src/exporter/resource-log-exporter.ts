import { normalizeConfig } from '../config/normalize-config.js';
import type { ExporterStats, ResourceLogExporterOptions } from '../config/options.js';
import { createExportDelegate, type ExportDelegate } from './export-delegate.js';
import { type ExportableLogRecord, type ExportResult, ExportResultCode } from './otel-types.js';

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
   * Sends the records and calls back once every record is acknowledged or accounted for:
   * SUCCESS, or FAILED with an `ExportFailedError` when any record was lost.
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

  /** Resolves when every export in flight has finished. */
  forceFlush(): Promise<void> {
    return this.#delegate.forceFlush();
  }

  /** Finishes exports in flight, then closes connections. Later exports fail with `shutdown`. */
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
