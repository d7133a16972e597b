import { INGEST_ENVELOPE_FIELDS } from '../../contract/ingest-body.js';
import { receiverError } from '../errors.js';
import { isRawJson } from './exact-numbers.js';

/** An ingest body split into its batch envelope and its records. */
export interface IngestBatch {
  resource: Record<string, unknown>;
  sdk: string | null;
  sdkVersion: string | null;
  records: unknown[];
  /** Unknown top-level fields of the envelope, kept on every record. */
  envelopeExtra: Record<string, unknown>;
}

const ENVELOPE_FIELDS = new Set<string>(INGEST_ENVELOPE_FIELDS);

function optionalString(body: Record<string, unknown>, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw receiverError('invalid_body', `${field} must be a string`);
  return value;
}

/**
 * Reads the envelope of an ingest body (docs/receiver.md, "Ingest"): an `IngestBody`
 * (src/contract/ingest-body.ts) checked field by field; a body without `logs` is a single
 * record (curl).
 */
export function readIngestBody(
  body: unknown,
  resourceUuid: string,
  maxRecords: number,
): IngestBatch {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || isRawJson(body)) {
    throw receiverError('invalid_body', 'request body must be a JSON object');
  }
  const envelope = body as Record<string, unknown>;
  const resourceId = envelope.resource_id;
  if (resourceId !== undefined && resourceId !== null) {
    if (typeof resourceId !== 'string' || resourceId.toLowerCase() !== resourceUuid) {
      throw receiverError('resource_id_mismatch');
    }
  }
  const resource = envelope.resource ?? {};
  if (
    typeof resource !== 'object' ||
    resource === null ||
    Array.isArray(resource) ||
    isRawJson(resource)
  ) {
    throw receiverError('invalid_body', 'resource must be a JSON object of attributes');
  }
  const sdk = optionalString(envelope, 'sdk');
  const sdkVersion = optionalString(envelope, 'sdk_version');

  if (!Object.hasOwn(envelope, 'logs')) {
    // curl: the body is one log record; envelope fields, if any, still describe the batch.
    const record: Record<string, unknown> = {};
    for (const key of Object.keys(envelope)) {
      if (!ENVELOPE_FIELDS.has(key)) record[key] = envelope[key];
    }
    return {
      resource: resource as Record<string, unknown>,
      sdk,
      sdkVersion,
      records: [record],
      envelopeExtra: {},
    };
  }
  if (!Array.isArray(envelope.logs)) throw receiverError('invalid_body', 'logs must be an array');
  const envelopeExtra: Record<string, unknown> = {};
  for (const key of Object.keys(envelope)) {
    if (!ENVELOPE_FIELDS.has(key)) envelopeExtra[key] = envelope[key];
  }
  return checkCount(
    {
      resource: resource as Record<string, unknown>,
      sdk,
      sdkVersion,
      records: envelope.logs,
      envelopeExtra,
    },
    maxRecords,
  );
}

function checkCount(batch: IngestBatch, maxRecords: number): IngestBatch {
  if (batch.records.length > maxRecords) {
    throw receiverError(
      'too_many_records',
      `${batch.records.length} records exceed the limit of ${maxRecords} per request`,
    );
  }
  return batch;
}
