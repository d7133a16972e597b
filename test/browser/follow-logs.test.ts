import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../src/receiver/console/api-client.ts';
import type { StoredLog } from '../../src/receiver/console/api-types.ts';
import { type FollowState, followLogs } from '../../src/receiver/console/follow-logs.ts';
import { filterProblem, filterQuery, NO_FILTERS } from '../../src/receiver/console/log-filters.ts';
import { createLineSplitter } from '../../src/receiver/console/ndjson-lines.ts';

/* The console's live tail and filters as plain modules (they use only fetch, streams and
 * timers), with a scripted fetch in place of the receiver. */

const log = (id: number) => ({ id, message: `m${id}` }) as StoredLog;
const line = (id: number) => `${JSON.stringify(log(id))}\n`;

/** A streamed NDJSON answer: each chunk is enqueued, then the stream ends or stays open. */
function ndjson(chunks: string[], { end = true } = {}) {
  return (signal: AbortSignal) => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        if (end) controller.close();
        // As fetch does: aborting the request errors a body still being read.
        else signal.addEventListener('abort', () => controller.error(signal.reason));
      },
    });
    return new Response(body, {
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8' },
    });
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function follow(responses: ((signal: AbortSignal) => Response)[]) {
  const urls: string[] = [];
  const headers: Record<string, string>[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    urls.push(url);
    headers.push(init.headers as Record<string, string>);
    const signal = init.signal as AbortSignal;
    const next = responses.shift();
    if (next) return next(signal);
    // No more answers: the request stays pending until it is aborted, as a real one would.
    return new Promise<Response>((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason));
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  const controller = new AbortController();
  const received: number[] = [];
  const states: FollowState[] = [];
  const done = followLogs({
    api: createApiClient({ kind: 'key', secret: 'alice-dev-key-0000000001' }, '/DevTools'),
    path: '/u/alice/resources/6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c/logs/',
    query: filterQuery({ ...NO_FILTERS, level: 'error' }),
    afterId: 7,
    signal: controller.signal,
    onLogs: (logs) => received.push(...logs.map((l) => l.id)),
    onState: (state) => states.push(state),
  });
  return { urls, headers, received, states, controller, done };
}

describe('live tail (followLogs)', { timeout: 10_000 }, () => {
  it('sends the key in a header, reads NDJSON split across chunks and skips heartbeats', async () => {
    const run = follow([
      ndjson([line(8).slice(0, 5), `${line(8).slice(5)}\n`, line(9)], { end: false }),
    ]);
    await vi.waitFor(() => expect(run.received).toEqual([8, 9]));
    expect(run.urls[0]).toBe(
      '/DevTools/u/alice/resources/6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c/logs/?level=error&follow=true&after_id=7',
    );
    expect(run.urls[0]).not.toContain('dev-key');
    expect(run.headers[0]?.['x-api-key']).toBe('alice-dev-key-0000000001');
    expect(run.states).toContain('live');
    run.controller.abort();
    await run.done;
  });

  it('reconnects after a dropped stream from the last id it saw', async () => {
    const run = follow([
      ndjson([line(8), line(9)]),
      () => new Response('{"error":{"code":"overloaded","message":"busy"}}', { status: 503 }),
      ndjson([line(10)], { end: false }),
    ]);
    await vi.waitFor(() => expect(run.received).toEqual([8, 9, 10]), { timeout: 5000 });
    expect(run.urls[1]).toContain('after_id=9');
    expect(run.urls[2]).toContain('after_id=9');
    expect(run.states).toContain('retrying');
    run.controller.abort();
    await run.done;
  });

  it('stops on an answer retrying cannot fix, and on one that is not a stream', async () => {
    const refused = follow([
      () =>
        new Response('{"error":{"code":"invalid_api_key","message":"API key is not valid"}}', {
          status: 401,
        }),
    ]);
    await refused.done;
    expect(refused.states.at(-1)).toBe('stopped');
    expect(refused.urls).toHaveLength(1);

    const page = follow([() => Response.json({ logs: [], next_cursor: null })]);
    await page.done;
    expect(page.states.at(-1)).toBe('stopped');
  });

  it('ends at once when aborted (filters changed, resource left, signed out)', async () => {
    const run = follow([]);
    await vi.waitFor(() => expect(run.urls).toHaveLength(1));
    run.controller.abort();
    await run.done;
    expect(run.urls).toHaveLength(1);
  });
});

describe('log filters', () => {
  it('become the read API query: UTC times, lower-case trace id, empty ones left out', () => {
    expect(
      filterQuery({
        level: 'alert',
        logger: ' payments ',
        q: 'timeout',
        since: '2026-11-23T01:00',
        until: '2026-11-23T02:00:30',
        traceId: '4BF92F3577B34DA6A3CE929D0E0E4736',
      }),
    ).toEqual({
      level: 'alert',
      logger: 'payments',
      q: 'timeout',
      since: '2026-11-23T01:00:00Z',
      until: '2026-11-23T02:00:30Z',
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
    });
    expect(Object.values(filterQuery(NO_FILTERS)).every((v) => v === undefined)).toBe(true);
  });

  it('refuse a malformed trace id and an empty time range before asking the server', () => {
    expect(filterProblem({ ...NO_FILTERS, traceId: 'abc' })).toMatch(/32 hex/);
    expect(
      filterProblem({ ...NO_FILTERS, since: '2026-11-23T02:00', until: '2026-11-23T01:00' }),
    ).toMatch(/before/);
    expect(filterProblem(NO_FILTERS)).toBeUndefined();
  });

  it('split NDJSON into whole lines across chunks', () => {
    const lines = createLineSplitter();
    expect(lines.push('{"a":')).toEqual([]);
    expect(lines.push('1}\n\n{"b"')).toEqual(['{"a":1}']);
    expect(lines.push(':2}\n')).toEqual(['{"b":2}']);
  });
});
