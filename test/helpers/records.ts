import type { ExportableLogRecord } from '../../src/exporter/otel-types.js';

/** A minimal settled resource, as `resourceFromAttributes` gives once detection is done. */
export function resource(attributes: Record<string, unknown>) {
  return { attributes };
}

/** A `ReadableLogRecord`-shaped record for tests that need no SDK. */
export function logRecord(overrides: Partial<ExportableLogRecord> = {}): ExportableLogRecord {
  return {
    hrTime: [1_795_234_527, 123_456_789],
    hrTimeObserved: [1_795_234_527, 124_000_000],
    severityNumber: 9,
    severityText: 'INFO',
    body: 'payment accepted',
    resource: resource({ 'service.name': 'checkout' }),
    instrumentationScope: { name: 'checkout.http' },
    attributes: {},
    ...overrides,
  };
}

/**
 * Exports the records, then waits until the exporter's backlog is empty (`forceFlush()`):
 * `export()` itself returns once the records are queued, and sending happens afterwards.
 * Returns what the export callback said.
 */
export async function exportOnce(
  exporter: {
    export(
      logs: readonly ExportableLogRecord[],
      cb: (r: { code: number; error?: Error }) => void,
    ): void;
    forceFlush?(): Promise<void>;
  },
  records: readonly ExportableLogRecord[],
): Promise<{ code: number; error?: Error }> {
  const result = await exportQueued(exporter, records);
  await exporter.forceFlush?.();
  return result;
}

/** Exports the records and returns once they are queued, without waiting for delivery. */
export function exportQueued(
  exporter: {
    export(
      logs: readonly ExportableLogRecord[],
      cb: (r: { code: number; error?: Error }) => void,
    ): void;
  },
  records: readonly ExportableLogRecord[],
): Promise<{ code: number; error?: Error }> {
  return new Promise((resolve) => exporter.export(records, resolve));
}
