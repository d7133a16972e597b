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

export function exportOnce(
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
