/** Per-key token buckets: `ratePerSecond` refill, `burst` capacity; `ratePerSecond` 0: off. */
export interface RateLimiter {
  /** Takes one token for `key`; returns 0 when allowed, else whole seconds until the next. */
  take(key: string): number;
  reset(): void;
}

export function createRateLimiter(
  ratePerSecond: number,
  burst: number,
  clock: () => number,
): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  if (ratePerSecond === 0) return { take: () => 0, reset() {} };
  return {
    take(key) {
      const now = clock();
      const bucket = buckets.get(key) ?? { tokens: burst, at: now };
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * ratePerSecond);
      bucket.at = now;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      // Retry-After is whole seconds (RFC 9110); never 0, which clients read as "now".
      return Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond));
    },
    reset() {
      buckets.clear();
    },
  };
}
