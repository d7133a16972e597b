export type {
  AttributeMatcher,
  AttributeValue,
  DropEvent,
  ExporterStats,
  ResourceLogExporterOptions,
  ResourceLogProcessorOptions,
  RouteRule,
  TargetStats,
} from './config/options.js';
export { parseResourceUrl, type ResourceUrl } from './config/resource-url.js';
export {
  type DropReason,
  type ErrorCode,
  ErrorCodes,
  ExportFailedError,
  HttpError,
  InvalidOptionError,
  NetworkError,
  ReslogError,
  TimeoutError,
} from './errors.js';
export { ResourceLogExporter } from './exporter/resource-log-exporter.js';
export { ResourceLogProcessor } from './exporter/resource-log-processor.js';
export { ROUTING_ATTRIBUTES } from './exporter/resource-router.js';
export { VERSION } from './version.js';
