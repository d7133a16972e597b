import { Agent, request } from 'undici';
import type { Store } from '../store/create-store.js';
import type { DueDelivery } from '../store/notification-store.js';
import { createPollingWorker, type PollingWorker } from './polling-worker.js';
import { signWebhook } from './webhook-signature.js';

export interface WebhookWorkerOptions {
  store: Store;
  clock: () => number;
  /** Waits after failed attempts 1, 2, …; when they run out the delivery is `failed`. */
  retryDelaysMillis: readonly number[];
  /** Time an attempt may take (connect, headers and body). */
  timeoutMillis: number;
  /** Longest sleep between looks at the queue (due times are read from `clock`). */
  pollMillis: number;
  log: { warn(object: object, message: string): void };
}

/**
 * Sends pending webhooks from the `webhook_deliveries` table until stopped. `kick()` looks at
 * the queue now (a delivery was just queued); `stop()` aborts attempts in flight, which stay
 * pending for the next start.
 */
export type WebhookWorker = PollingWorker;

/** Statuses worth another attempt: the receiver may recover; other 4xx will not. */
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;
const BATCH = 16;

export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { store, clock } = options;
  const agent = new Agent({ connections: 8, keepAliveTimeout: 4000 });

  const attempt = async (delivery: DueDelivery, signal: AbortSignal) => {
    const notification = store.notifications.get(delivery.notificationId);
    if (!notification) return; // the member was removed or the resource deleted
    const account = store.directory.accountById(delivery.accountId);
    if (!account) return;
    const { webhook: _webhook, read_at: _read, accountId: _account, ...event } = notification;
    const body = JSON.stringify({
      event: notification.kind,
      recipient: account.username,
      ...event,
    });
    const attempts = delivery.attempts + 1;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await request(delivery.url, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'reslog-receiver',
          'x-reslog-event': notification.kind,
          'x-reslog-delivery': String(notification.id),
          'x-reslog-attempt': String(attempts),
          'x-reslog-signature': signWebhook(store.directory.webhookSecret(account.id), body),
        },
        body,
        headersTimeout: options.timeoutMillis,
        bodyTimeout: options.timeoutMillis,
        signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMillis)]),
      });
      status = response.statusCode;
      await response.body.dump({ limit: 64 * 1024 });
    } catch (cause) {
      // Stopping: leave it pending with its attempts unchanged, to be sent after a restart.
      if (signal.aborted || !store.db.isOpen) return;
      const err = cause as Error & { code?: string };
      error =
        err.name === 'TimeoutError'
          ? `timed out after ${options.timeoutMillis} ms`
          : (err.code ?? err.message);
    }
    if (!store.db.isOpen) return;
    const ok = status !== null && status >= 200 && status < 300;
    if (status !== null && !ok) error = `answered ${status}`;
    const delay = options.retryDelaysMillis[attempts - 1];
    const retry = !ok && (status === null || retryable(status)) && delay !== undefined;
    store.notifications.recordAttempt(delivery.notificationId, {
      state: ok ? 'delivered' : retry ? 'pending' : 'failed',
      attempts,
      nextAttemptMs: retry ? clock() + delay : clock(),
      status,
      error,
    });
    if (!ok) {
      // Never the URL (it may carry a token) nor the secret.
      options.log.warn(
        { notification: delivery.notificationId, attempt: attempts, status, error, retry },
        'webhook delivery failed',
      );
    }
  };

  return createPollingWorker({
    name: 'webhook worker',
    clock,
    pollMillis: options.pollMillis,
    log: options.log,
    isOpen: () => store.db.isOpen,
    async pass(signal) {
      for (;;) {
        if (signal.aborted || !store.db.isOpen) return;
        const due = store.notifications.dueDeliveries(clock(), BATCH);
        if (due.length === 0) return;
        await Promise.all(due.map((delivery) => attempt(delivery, signal)));
        // A delivery that is still due (same clock) was retried with no delay: move on.
        if (due.length < BATCH) return;
      }
    },
    nextDueMs: () => store.notifications.nextDeliveryDueMs(),
    onStop: () => agent.destroy(),
  });
}
