import { normalizeConfig } from '../config/normalize-config.js';
import type { ResourceLogProcessorOptions } from '../config/options.js';
import type { ExportableLogRecord } from './otel-types.js';
import { createProcessorDelegate, type ProcessorDelegate } from './processor-delegate.js';
import type { ExporterStats } from './stats-types.js';

/**
 * An OpenTelemetry `LogRecordProcessor` that does what `BatchLogRecordProcessor` with a
 * `ResourceLogExporter` does, for less CPU inside a service: each record is serialized when it
 * is emitted, into its target's open batch, and full batches go to the same backlog, delivery
 * loop and accounting as the exporter's. Use it in `LoggerProvider`'s `processors` or the
 * NodeSDK's `logRecordProcessors`, instead of a batch processor and exporter.
 * See docs/exporter.md, "The processor".
 *
 * @throws InvalidOptionError when an option passed in code is invalid, or when no base URL or
 *   API key is given in code or environment.
 */
export class ResourceLogProcessor {
  readonly #delegate: ProcessorDelegate;

  constructor(options: ResourceLogProcessorOptions = {}) {
    this.#delegate = createProcessorDelegate(normalizeConfig(options));
  }

  /**
   * Routes and serializes the record into its target's open batch. Never throws: a record
   * that cannot be taken is counted in `getStats().dropped` and reported through `diag`.
   */
  onEmit(logRecord: ExportableLogRecord, _context?: unknown): void {
    this.#delegate.emit(logRecord);
  }

  /**
   * Tells the SDK's `Logger.enabled()` (and `emit()`, which asks it first) that records whose
   * severity number is below `minLevel` are not wanted, so the SDK does not build them. A
   * record without a number may still qualify by its text: enabled.
   */
  enabled(options: { severityNumber?: number | undefined }): boolean {
    return this.#delegate.enabled(options.severityNumber);
  }

  /**
   * Queues every open batch, then resolves once every backlog is empty (all batches
   * acknowledged or dropped), or when `flushTimeoutMillis` has passed with batches still queued
   * (told through `diag`). Never rejects.
   */
  forceFlush(): Promise<void> {
    return this.#delegate.forceFlush();
  }

  /**
   * Queues every open batch and keeps sending for up to `shutdownTimeoutMillis`, then stops:
   * what is left is counted as dropped `shutdown`, or, with a spool, stays on disk for the next
   * start. Records emitted afterwards are dropped as `shutdown`.
   */
  shutdown(): Promise<void> {
    return this.#delegate.shutdown();
  }

  /** Counters since creation: exported, retried, dropped by reason, per target. */
  getStats(): ExporterStats {
    return this.#delegate.stats();
  }
}
