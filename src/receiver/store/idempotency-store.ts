import type { DatabaseSync } from 'node:sqlite';

/** How long an `Idempotency-Key` is remembered (docs/protocol.md, "Request headers"). */
export const IDEMPOTENCY_TTL_MILLIS = 24 * 60 * 60 * 1000;

export interface IdempotencyRecord {
  bodyDigest: string;
  status: number;
  response: unknown;
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

/** First answers to requests with an `Idempotency-Key`, per account and resource, for 24 h. */
export function createIdempotencyStore(db: DatabaseSync) {
  const get = db.prepare(
    `SELECT body_digest, status, response FROM idempotency_records
      WHERE account_id = ? AND resource_id = ? AND idempotency_key = ? AND created_at_ms > ?`,
  );
  const put = db.prepare(
    `INSERT OR REPLACE INTO idempotency_records
       (account_id, resource_id, idempotency_key, body_digest, status, response, created_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const purge = db.prepare('DELETE FROM idempotency_records WHERE created_at_ms <= ?');

  return {
    get(accountId: number, resourceId: number, key: string, nowMillis: number) {
      const row = get.get(accountId, resourceId, key, nowMillis - IDEMPOTENCY_TTL_MILLIS) as
        | { body_digest: string; status: number; response: string }
        | undefined;
      if (!row) return undefined;
      return {
        bodyDigest: row.body_digest,
        status: row.status,
        response: JSON.parse(row.response),
      } satisfies IdempotencyRecord;
    },

    put(
      accountId: number,
      resourceId: number,
      key: string,
      record: IdempotencyRecord,
      nowMillis: number,
    ) {
      put.run(
        accountId,
        resourceId,
        key,
        record.bodyDigest,
        record.status,
        JSON.stringify(record.response),
        nowMillis,
      );
    },

    /** Forgets keys older than 24 h; returns how many were removed. */
    purgeExpired(nowMillis: number): number {
      return Number(purge.run(nowMillis - IDEMPOTENCY_TTL_MILLIS).changes);
    },
  };
}
