/**
 * What the receiver answers (docs/protocol.md, "Answers"): a 202 acknowledgement after the
 * commit, or an error body. The receiver produces these types; the exporter reads them from
 * untrusted JSON as {@link Unchecked} values, since a service or a proxy may answer anything.
 */

/** Why one record of a batch was rejected. */
export interface IngestRecordError {
  /** Position of the record in the request's `logs`. */
  index: number;
  code: string;
  message: string;
}

/** The 202 answer to an ingest request. */
export interface IngestAcknowledgement {
  accepted: number;
  rejected: number;
  request_id: string;
  errors: IngestRecordError[];
}

/**
 * Every error answer of the receiver; `code` is stable, for clients to switch on. The
 * receiver narrows `Code` to its `ReceiverErrorCode` (docs/errors.md, "Receiver"); a client
 * reads it as a string, since a newer service may send a code it does not know.
 */
export interface ErrorBody<Code extends string = string> {
  error: {
    code: Code;
    message: string;
    request_id: string;
  };
}

/** A contract shape as read from JSON nobody checked yet: every field may be missing or anything. */
export type Unchecked<T> = { readonly [K in keyof T]?: unknown };
