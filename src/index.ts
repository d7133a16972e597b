export type {
  AttributeMatcher,
  AttributeValue,
  MinLevel,
  ResourceLogExporterOptions,
  ResourceLogProcessorOptions,
  RouteRule,
} from './config/options.js';
export { parseResourceUrl, type ResourceUrl } from './config/resource-url.js';
export {
  BacklogFullError,
  CircuitOpenError,
  type ErrorCode,
  ErrorCodes,
  ExpiredError,
  ExportFailedError,
  HttpError,
  InvalidOptionError,
  KeyLookupError,
  NetworkError,
  OversizeError,
  type RecordError,
  RejectedRecordsError,
  ReslogError,
  ShutdownError,
  SpoolCorruptError,
  TimeoutError,
  UnmappedError,
} from './errors.js';
export type {
  ExportableLogRecord,
  ExportResult,
  HrTime,
  LogResource,
} from './exporter/otel-types.js';
export { ResourceLogExporter } from './exporter/resource-log-exporter.js';
export { ResourceLogProcessor } from './exporter/resource-log-processor.js';
export { ROUTING_ATTRIBUTES } from './exporter/resource-router.js';
export type {
  DropEvent,
  DropReason,
  ExporterStats,
  SpoolStats,
  TargetStats,
} from './exporter/stats-types.js';
export { VERSION } from './version.js';
