import type { IngestAcknowledgement, IngestRecordError } from '../../contract/ingest-answer.js';
import { receiverError } from '../errors.js';
import type { ReceiverContext, ResourceAccess } from '../receiver-context.js';
import type { NewLog } from '../store/log-store.js';
import type { IngestBatch } from './ingest-body.js';
import { validateRecord } from './record-validator.js';
import { nanosFromMillis } from './timestamps.js';

export interface IngestResult {
  status: number;
  body: IngestAcknowledgement;
  /** True when this is the stored answer of an earlier request with the same key and body. */
  replayed: boolean;
}

export interface IngestInput {
  access: ResourceAccess;
  batch: IngestBatch;
  /** SHA-256 of the decoded body, compared on `Idempotency-Key` replays. */
  bodyDigest: string;
  idempotencyKey: string | undefined;
  requestId: string;
  /** Records already converted (OTLP); when absent, `batch.records` are validated here. */
  converted?: { logs: NewLog[]; errors: IngestRecordError[] };
}

/**
 * Validates a batch and stores its valid records in one transaction with its idempotency
 * record, so that an answer is only ever sent for committed data (docs/receiver.md, "Ingest").
 */
export function ingest(ctx: ReceiverContext, input: IngestInput): IngestResult {
  const now = ctx.clock();
  const { access, batch, idempotencyKey } = input;
  const { principal, resource } = access;
  const receivedNs = nanosFromMillis(now);

  let logs: NewLog[];
  let errors: IngestRecordError[];
  if (input.converted) {
    ({ logs, errors } = input.converted);
  } else {
    logs = [];
    errors = [];
    const envelopeExtra =
      Object.keys(batch.envelopeExtra).length > 0 ? batch.envelopeExtra : undefined;
    const { records } = batch;
    for (let index = 0; index < records.length; index++) {
      const result = validateRecord(records[index], index, receivedNs, ctx.limits);
      if ('error' in result) errors.push(result.error);
      else {
        if (envelopeExtra) result.log.unknownFields.$envelope = envelopeExtra;
        logs.push(result.log);
      }
    }
  }

  const result = ctx.store.transaction((): IngestResult => {
    if (idempotencyKey !== undefined) {
      const earlier = ctx.store.idempotency.get(
        principal.accountId,
        resource.id,
        idempotencyKey,
        now,
      );
      if (earlier) {
        if (earlier.bodyDigest !== input.bodyDigest) {
          throw receiverError('idempotency_key_reused');
        }
        return {
          status: earlier.status,
          body: earlier.response as IngestAcknowledgement,
          replayed: true,
        };
      }
    }
    ctx.store.logs.insert(resource.id, logs, {
      resource: batch.resource,
      sdk: batch.sdk,
      sdkVersion: batch.sdkVersion,
      receivedAt: new Date(now).toISOString(),
      requestId: input.requestId,
      actingUser: principal.username,
    });
    const body: IngestAcknowledgement = {
      accepted: logs.length,
      rejected: errors.length,
      request_id: input.requestId,
      errors,
    };
    if (idempotencyKey !== undefined) {
      ctx.store.idempotency.put(
        principal.accountId,
        resource.id,
        idempotencyKey,
        { bodyDigest: input.bodyDigest, status: 202, response: body },
        now,
      );
    }
    return { status: 202, body, replayed: false };
  });

  if (!result.replayed) {
    ctx.metrics.recordsAccepted(result.body.accepted);
    for (const error of result.body.errors) ctx.metrics.recordRejected(error.code);
    if (result.body.accepted > 0) {
      ctx.events.committed(resource.id);
      // After the commit, never inside it: alerts cannot hold back or fail an ingest.
      ctx.monitor.logsCommitted(resource.id, logs);
    }
  }
  return result;
}
