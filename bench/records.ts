import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';

/** The bench's tenant: one account, one key, one resource (seeded into the receiver). */
export const BENCH_USERNAME = 'bench';
export const BENCH_API_KEY = 'bench-api-key-000000000001';
export const BENCH_RESOURCE_UUID = '4a5b6c7d-8e9f-4a0b-8c1d-2e3f4a5b6c7d';
export const BENCH_RESOURCE_KEY = 'bench-service';
export const INGEST_PATH = `/u/${BENCH_USERNAME}/resources/${BENCH_RESOURCE_UUID}/logs/`;

export const BENCH_SEED = {
  accounts: [{ username: BENCH_USERNAME, api_keys: [BENCH_API_KEY] }],
  resources: [{ owner: BENCH_USERNAME, uuid: BENCH_RESOURCE_UUID, key: BENCH_RESOURCE_KEY }],
};

export const SCOPE = { name: 'bench.logger', version: '1.0.0' } as const;
export const RESOURCE_ATTRIBUTES = { 'service.name': 'checkout' } as const;

/** ~100 characters, like a typical one-line application log message. */
export const MESSAGE =
  'payment accepted for order after fraud check passed; card network answered in 84 ms (ok)';

export function recordAttributes(i: number): Record<string, string | number | boolean> {
  return {
    'http.route': '/pay',
    'http.status_code': 200,
    'user.id': 'u42',
    'order.id': i,
    ok: true,
  };
}

/**
 * `count` finished log records as `BatchLogRecordProcessor` hands them to an exporter: two
 * timestamps, severity, a string body, five attributes, one shared resource and scope.
 */
export function buildRecords(count: number): ReadableLogRecord[] {
  const resource = resourceFromAttributes({ ...RESOURCE_ATTRIBUTES });
  const start = Math.floor(Date.now() / 1000);
  const records: ReadableLogRecord[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const seconds = start + Math.floor(i / 1000);
    const nanos = (i % 1000) * 1_000_000 + 123_456;
    records[i] = {
      hrTime: [seconds, nanos],
      hrTimeObserved: [seconds, nanos + 500],
      severityNumber: 9,
      severityText: 'INFO',
      body: `${MESSAGE} #${i}`,
      attributes: recordAttributes(i),
      resource,
      instrumentationScope: { ...SCOPE },
      droppedAttributesCount: 0,
    };
  }
  return records;
}

function isoNanos(seconds: number, nanos: number): string {
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 19)}.${String(nanos).padStart(9, '0')}Z`;
}

/**
 * The ingest body (docs/protocol.md) for `records`, written by the bench itself with one
 * `JSON.stringify`, so the ceiling and the load generator send what reslog sends (the service
 * SDK's record layout) without depending on the exporter's internals.
 */
export function ingestBody(records: readonly ReadableLogRecord[]): string {
  return JSON.stringify({
    resource_id: BENCH_RESOURCE_UUID,
    sdk: 'reslog-bench',
    sdk_version: '0.0.0',
    resource: RESOURCE_ATTRIBUTES,
    logs: records.map((record) => ({
      level: 'info',
      message: record.body,
      logger: record.instrumentationScope.name,
      ts: isoNanos(record.hrTime[0], record.hrTime[1]),
      extra: {
        logger: record.instrumentationScope.name,
        module: null,
        function: null,
        line: null,
        path: null,
        extra: record.attributes,
        stack_info: null,
        exception: null,
      },
      severity_number: record.severityNumber,
      observed_ts: isoNanos(record.hrTimeObserved[0], record.hrTimeObserved[1]),
    })),
  });
}
