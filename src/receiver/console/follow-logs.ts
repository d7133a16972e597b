import { type ApiClient, errorOf, type Query } from './api-client.ts';
import type { StoredLog } from './api-types.ts';
import { createLineSplitter } from './ndjson-lines.ts';

export type FollowState = 'connecting' | 'live' | 'retrying' | 'stopped';

export interface FollowOptions {
  api: ApiClient;
  /** The resource's `…/logs/` path. */
  path: string;
  /** The same filters as the listing. */
  query: Query;
  /** Highest id the console already has; the stream starts after it. */
  afterId: number;
  onLogs(logs: StoredLog[]): void;
  onState(state: FollowState, detail?: string): void;
  /** Aborted when the filters change, the resource is left or the user signs out. */
  signal: AbortSignal;
}

const MAX_BACKOFF_MILLIS = 10_000;

function pause(millis: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, millis);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Live tail (docs/receiver.md, "Web console"): `GET …/logs/?follow=true&after_id=N` answers
 * NDJSON, one stored log per line in ascending id, empty lines as heartbeats. It is read with
 * fetch, not EventSource, because EventSource cannot send the key in a header (and the key
 * must not go in the URL). A dropped stream is reopened after the last id seen, with
 * exponential backoff; errors that retrying cannot fix (4xx) stop it.
 */
export async function followLogs(options: FollowOptions): Promise<void> {
  const { api, signal, onState } = options;
  let afterId = options.afterId;
  let failures = 0;
  while (!signal.aborted) {
    onState(failures === 0 ? 'connecting' : 'retrying');
    try {
      const response = await fetch(
        api.url(options.path, { ...options.query, follow: 'true', after_id: afterId }),
        {
          headers: { ...api.headers(), accept: 'application/x-ndjson' },
          signal,
          cache: 'no-store',
          credentials: 'omit',
        },
      );
      if (!response.ok) {
        const error = await errorOf(response);
        if (response.status < 500 && response.status !== 408 && response.status !== 429) {
          onState('stopped', error.message);
          return;
        }
        throw error;
      }
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('application/x-ndjson') || !response.body) {
        onState('stopped', 'this receiver does not stream logs (follow=true)');
        return;
      }
      onState('live');
      failures = 0;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const lines = createLineSplitter();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const logs: StoredLog[] = [];
        for (const line of lines.push(decoder.decode(value, { stream: true }))) {
          try {
            const log = JSON.parse(line) as StoredLog;
            if (typeof log.id === 'number' && log.id > afterId) {
              afterId = log.id;
              logs.push(log);
            }
          } catch {
            // a line that is not JSON is skipped; the next one may be fine
          }
        }
        if (logs.length > 0) options.onLogs(logs);
      }
    } catch {
      if (signal.aborted) return;
    }
    failures += 1;
    onState('retrying');
    const backoff = Math.min(MAX_BACKOFF_MILLIS, 250 * 2 ** Math.min(failures, 6));
    await pause(backoff * (0.5 + Math.random() / 2), signal);
  }
}
