/**
 * The JSON body of `POST …/resources/<uuid>/logs/` (docs/protocol.md, "Request body"). The
 * exporter writes it as text in this field order (src/exporter/log-serializer.ts); the
 * receiver reads it as untrusted JSON and checks every field (src/receiver/ingest/ingest-body.ts,
 * record-validator.ts), so the types say what a well-formed body holds, not what arrives.
 */

/** The batch envelope. A body that is a single {@link IngestRecord} (no `logs`) is one log. */
export interface IngestBody {
  /** Must equal the path's UUID when present. */
  resource_id?: string;
  sdk?: string;
  sdk_version?: string;
  /** OpenTelemetry resource attributes (reslog). */
  resource?: Record<string, unknown>;
  logs: IngestRecord[];
}

/** The envelope's own fields; any other top-level field is kept with every record. */
export const INGEST_ENVELOPE_FIELDS = [
  'resource_id',
  'sdk',
  'sdk_version',
  'resource',
  'logs',
] as const satisfies readonly (keyof IngestBody)[];

/** One log record. The first five fields are the SDKs'; the rest are reslog's. */
export interface IngestRecord {
  /** A level name (docs/protocol.md, "Levels"); the exporter sends one of `LEVELS`. */
  level?: string;
  message?: string;
  logger?: string | null;
  /** RFC 3339 (src/contract/timestamps.ts). */
  ts?: string;
  /** {@link SdkExtra} from the SDKs and the exporter; stored as sent, whatever its shape. */
  extra?: unknown;
  /** OpenTelemetry severity number, 0–24. */
  severity_number?: number;
  /** 32 lower-case hex digits. */
  trace_id?: string;
  /** 16 lower-case hex digits. */
  span_id?: string;
  /** RFC 3339; absent means equal to `ts`. */
  observed_ts?: string;
  event_name?: string;
  /** A structured (non-string) body; its JSON text is also the `message`. */
  body?: unknown;
  /** Accepted by the receiver; the exporter sends attributes in `extra.extra` instead. */
  attributes?: Record<string, unknown>;
  id?: string | number;
}

/** The record fields the receiver knows; any other is stored and read back as sent. */
export const INGEST_RECORD_FIELDS = [
  'ts',
  'level',
  'severity_number',
  'message',
  'logger',
  'attributes',
  'extra',
  'body',
  'trace_id',
  'span_id',
  'observed_ts',
  'event_name',
  'id',
] as const satisfies readonly (keyof IngestRecord)[];

/** `extra` as the SDKs send it (docs/protocol.md, "`extra` (SDK)"): every key, `null` when empty. */
export interface SdkExtra {
  logger: string | null;
  module: string | null;
  function: string | null;
  line: number | null;
  path: string | null;
  /** The caller's own key/values: the record's attributes without routing ones. */
  extra: Record<string, unknown>;
  stack_info: string | null;
  exception: string | null;
}
