import { setTimeout as sleep } from 'node:timers/promises';
import type { ExportResponse, HttpRequest, Transport } from './export-response.js';
import { backoffMillis } from './retry-rules.js';

export interface RetryingTransportOptions {
  /** Called before each retry, for the `retried` counter. */
  readonly onRetry?: (response: ExportResponse & { status: 'retryable' }) => void;
  /** Source of jitter in [0, 1). @default Math.random */
  readonly random?: () => number;
}

/**
 * Retries what the inner transport calls retryable, with exponential backoff and jitter or
 * the server's `Retry-After`, until the deadline. A wait that would end past the deadline is
 * not started: the last retryable answer is returned at once, so the caller can count the
 * records as `retry_budget` while time is left to report it. The request (and so its
 * `Idempotency-Key`) is the same object on every attempt.
 */
export function createRetryingTransport(
  inner: Transport,
  options: RetryingTransportOptions = {},
): Transport {
  const random = options.random ?? Math.random;
  return {
    async send(request: HttpRequest, deadline: number) {
      for (let retry = 0; ; retry++) {
        const response = await inner.send(request, deadline);
        if (response.status !== 'retryable') return response;
        const delay = response.retryAfterMillis ?? backoffMillis(retry, random());
        // Leave time for at least a short attempt after the wait.
        if (Date.now() + delay + 50 >= deadline) return response;
        options.onRetry?.(response);
        await sleep(delay);
      }
    },
    close: () => inner.close(),
  };
}
