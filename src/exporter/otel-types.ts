/**
 * The parts of the OpenTelemetry logs SDK types the exporter reads, declared structurally so
 * that one build works with `@opentelemetry/sdk-logs` 3.x and with the 0.2xx line (whose
 * `ReadableLogRecord` and `ExportResult` have the same shape); test/compat checks both.
 */

export type HrTime = readonly [seconds: number, nanos: number];

export interface LogResource {
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly asyncAttributesPending?: boolean;
  waitForAsyncAttributes?(): Promise<void>;
}

export interface ExportableLogRecord {
  readonly hrTime: HrTime;
  readonly hrTimeObserved: HrTime;
  readonly spanContext?: { readonly traceId: string; readonly spanId: string } | undefined;
  readonly severityText?: string | undefined;
  readonly severityNumber?: number | undefined;
  readonly body?: unknown;
  readonly eventName?: string | undefined;
  readonly resource: LogResource;
  readonly instrumentationScope: { readonly name: string; readonly version?: string | undefined };
  readonly attributes: Readonly<Record<string, unknown>>;
}

/** Same values as `ExportResultCode` in `@opentelemetry/core` (SUCCESS = 0, FAILED = 1). */
export const ExportResultCode = { SUCCESS: 0, FAILED: 1 } as const;

export interface ExportResult {
  code: 0 | 1;
  error?: Error;
}
