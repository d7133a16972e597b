import type { IngestRecordError } from '../../contract/ingest-answer.js';
import { INGEST_RECORD_FIELDS } from '../../contract/ingest-body.js';
import { LEVEL_RANKS, levelOfSeverityNumber } from '../../contract/levels.js';
import type { NewLog } from '../store/log-store.js';
import { isRawJson, numberValue } from './exact-numbers.js';
import { TooDeepRecord } from './json-body.js';
import { type LogLevel, MAX_LEVEL_NAME_LENGTH, readLevel } from './levels.js';
import { parseTimestamp } from './timestamps.js';

export interface RecordLimits {
  maxMessageBytes: number;
  maxAttributesBytes: number;
}

const KNOWN_FIELDS = new Set<string>(INGEST_RECORD_FIELDS);

const HEX = /^[0-9a-fA-F]+$/;

class RecordRejection extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function reject(code: string, message: string): never {
  throw new RecordRejection(code, message);
}

function optionalString(record: Record<string, unknown>, field: string): string | null {
  const value = record[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') reject(`invalid_${field}`, `${field} must be a string`);
  return value;
}

function timestamp(value: unknown, field: string): bigint | null {
  if (value === undefined || value === null) return null;
  const nanos = typeof value === 'string' ? parseTimestamp(value) : undefined;
  if (nanos === undefined) {
    reject(
      `invalid_${field}`,
      `${field} must be an RFC 3339 timestamp with up to 9 fractional digits`,
    );
  }
  return nanos;
}

function hexId(value: unknown, field: string, length: number): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length !== length || !HEX.test(value)) {
    reject(`invalid_${field}`, `${field} must be ${length} hex characters`);
  }
  const lower = value.toLowerCase();
  // All zeros is the W3C "invalid" id: no trace context.
  return /^0+$/.test(lower) ? null : lower;
}

/**
 * The JSON text of a field, rejected when over `limit` bytes. The text is kept for the
 * store, which would otherwise serialize the same value again.
 */
function jsonText(value: unknown, field: string, limit: number): string | null {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only a long text needs its bytes counted.
  if (text.length * 3 > limit) {
    const size = Buffer.byteLength(text);
    if (size > limit) {
      reject(`${field}_too_large`, `${field} is ${size} bytes of JSON, over ${limit}`);
    }
  }
  return text;
}

function level(record: Record<string, unknown>, severityNumber: number | null): LogLevel {
  const value = record.level;
  if (value === undefined || value === null) {
    const level = (severityNumber !== null && levelOfSeverityNumber(severityNumber)) || 'info';
    return { name: level, rank: LEVEL_RANKS[level] };
  }
  const parsed = typeof value === 'string' ? readLevel(value) : undefined;
  if (!parsed) {
    reject(
      'invalid_level',
      `level must be a string of at most ${MAX_LEVEL_NAME_LENGTH} characters`,
    );
  }
  return parsed;
}

function severity(raw: unknown): number | null {
  if (raw === undefined || raw === null) return null;
  const value = numberValue(raw);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 24) {
    reject('invalid_severity_number', 'severity_number must be an integer from 0 to 24');
  }
  return value;
}

/**
 * Validates and normalises one record of an ingest body (docs/receiver.md, "Ingest"). Unknown
 * fields are kept in `unknownFields`; `ts` defaults to `receivedNs`, `level` to `info` (or
 * the level of `severity_number`), `message` to `""`. Numbers the parser kept as text
 * (`JSON.rawJSON`, see exact-numbers.ts) are stored as that text.
 */
export function validateRecord(
  raw: unknown,
  index: number,
  receivedNs: bigint,
  limits: RecordLimits,
): { log: NewLog } | { error: IngestRecordError } {
  try {
    if (raw instanceof TooDeepRecord) {
      reject(
        'nesting_too_deep',
        `the record is nested deeper than ${raw.maxDepth} levels (the record counts as 1)`,
      );
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || isRawJson(raw)) {
      reject('invalid_record', 'a log record must be a JSON object');
    }
    const record = raw as Record<string, unknown>;
    const message = record.message ?? '';
    if (typeof message !== 'string') reject('invalid_message', 'message must be a string');
    if (
      message.length * 3 > limits.maxMessageBytes &&
      Buffer.byteLength(message) > limits.maxMessageBytes
    ) {
      reject('message_too_large', `message is over ${limits.maxMessageBytes} bytes`);
    }
    const attributes = record.attributes ?? {};
    if (typeof attributes !== 'object' || Array.isArray(attributes) || isRawJson(attributes)) {
      reject('invalid_attributes', 'attributes must be a JSON object');
    }
    const attributesJson = jsonText(attributes, 'attributes', limits.maxAttributesBytes) as string;
    const extraJson = jsonText(record.extra, 'extra', limits.maxAttributesBytes);
    const bodyJson = jsonText(record.body, 'body', limits.maxAttributesBytes);
    const severityNumber = severity(record.severity_number);
    const id = record.id;
    if (
      id !== undefined &&
      id !== null &&
      typeof id !== 'string' &&
      typeof id !== 'number' &&
      !isRawJson(id)
    ) {
      reject('invalid_id', 'id must be a string or a number');
    }
    const unknownFields: Record<string, unknown> = {};
    let unknownCount = 0;
    for (const key of Object.keys(record)) {
      if (!KNOWN_FIELDS.has(key)) {
        unknownFields[key] = record[key];
        unknownCount++;
      }
    }
    // `{}` is 2 bytes of JSON: only a tiny limit could reject it.
    if (unknownCount > 0 || limits.maxAttributesBytes < 2) {
      jsonText(unknownFields, 'unknown_fields', limits.maxAttributesBytes);
    }
    const tsNs = timestamp(record.ts, 'ts') ?? receivedNs;
    const { name, rank } = level(record, severityNumber);
    return {
      log: {
        tsNs,
        level: name,
        levelRank: rank,
        severityNumber,
        message,
        logger: optionalString(record, 'logger'),
        attributes: attributes as Record<string, unknown>,
        extra: record.extra,
        body: record.body,
        traceId: hexId(record.trace_id, 'trace_id', 32),
        spanId: hexId(record.span_id, 'span_id', 16),
        // Absent means observed at `ts` (the exporter leaves it out when the two are equal).
        observedTsNs: timestamp(record.observed_ts, 'observed_ts') ?? tsNs,
        eventName: optionalString(record, 'event_name'),
        recordId: id === undefined || id === null ? null : isRawJson(id) ? id.rawJSON : String(id),
        unknownFields,
        json: { attributes: attributesJson, extra: extraJson, body: bodyJson },
      },
    };
  } catch (error) {
    if (error instanceof RecordRejection) {
      return { error: { index, code: error.code, message: error.message } };
    }
    throw error;
  }
}
