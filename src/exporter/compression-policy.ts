/** How long a target that refused gzip is sent uncompressed bodies before gzip is tried again. */
export const IDENTITY_MILLIS = 60 * 60 * 1000;

export interface CompressionPolicy {
  /** Whether the next body for `target` is gzipped. */
  gzipFor(target: string, now: number): boolean;
  /**
   * Whether an answer to a gzipped request means the target did not take the encoding, so the
   * same batch must go again uncompressed: 415 (RFC 7694 §3, with or without
   * `Accept-Encoding`) or 400 (a plain JSON app that tried to parse gzip as JSON).
   */
  refusedGzip(statusCode: number): boolean;
  /**
   * Records the answer to the uncompressed retry of a batch the target refused gzipped. When
   * the target refused the plain body the same way, the encoding was not the problem and
   * nothing is remembered, nor when there was no answer at all (`statusCode` 0); otherwise
   * the target gets plain bodies for {@link IDENTITY_MILLIS}.
   */
  plainAnswered(target: string, statusCode: number, now: number): void;
}

/**
 * `'auto'` starts every target on gzip and falls back per target, so that no batch is lost to
 * the encoding (docs/exporter.md, "Compression"); `'gzip'` and `'none'` force one encoding.
 */
export function createCompressionPolicy(mode: 'auto' | 'gzip' | 'none'): CompressionPolicy {
  const plainUntil = new Map<string, number>();
  return {
    gzipFor(target, now) {
      if (mode !== 'auto') return mode === 'gzip';
      const until = plainUntil.get(target);
      if (until === undefined) return true;
      if (now < until) return false;
      plainUntil.delete(target);
      return true;
    },
    refusedGzip(statusCode) {
      return mode === 'auto' && (statusCode === 415 || statusCode === 400);
    },
    plainAnswered(target, statusCode, now) {
      if (statusCode === 0 || statusCode === 415 || statusCode === 400) return;
      plainUntil.set(target, now + IDENTITY_MILLIS);
    },
  };
}
