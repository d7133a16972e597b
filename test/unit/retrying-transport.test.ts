import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError, NetworkError } from '../../src/errors.js';
import type {
  ExportResponse,
  HttpRequest,
  Transport,
} from '../../src/transport/export-response.js';
import { createRetryingTransport } from '../../src/transport/retrying-transport.js';

// A virtual clock: sleeping advances Date.now() instead of waiting, so no test really sleeps.
const clock = vi.hoisted(() => ({ now: 0, sleeps: [] as number[] }));
vi.mock('node:timers/promises', () => ({
  setTimeout: async (ms: number) => {
    clock.sleeps.push(ms);
    clock.now += ms;
  },
}));

const START = 1_800_000_000_000;

beforeEach(() => {
  clock.now = START;
  clock.sleeps.length = 0;
  vi.spyOn(Date, 'now').mockImplementation(() => clock.now);
});

const success: ExportResponse = { status: 'success', statusCode: 202, json: { accepted: 1 } };
const unavailable = (retryAfterMillis?: number): ExportResponse => ({
  status: 'retryable',
  statusCode: 503,
  error: new HttpError(503, 'overloaded', 'service unavailable'),
  ...(retryAfterMillis === undefined ? {} : { retryAfterMillis }),
});
const reset = (): ExportResponse => ({
  status: 'retryable',
  statusCode: 0,
  error: new NetworkError('socket reset'),
});

/** An inner transport answering from a script and recording what it was sent, and when. */
function fakeTransport(answers: ExportResponse[]) {
  const calls: { request: HttpRequest; deadline: number; at: number }[] = [];
  const transport: Transport & { calls: typeof calls } = {
    calls,
    send: vi.fn(async (request: HttpRequest, deadline: number) => {
      calls.push({ request, deadline, at: clock.now });
      const answer = answers.shift();
      if (!answer) throw new Error('fake transport: no answer scripted');
      return answer;
    }),
    close: vi.fn(async () => {}),
  };
  return transport;
}

const request: HttpRequest = {
  method: 'POST',
  path: '/u/alice/resources/11111111-1111-4111-8111-111111111111/logs/',
  headers: { 'idempotency-key': '6f1c0e2a-5b7d-4c3e-9a8b-1d2e3f4a5b6c' },
  body: Buffer.from('{}'),
};

describe('createRetryingTransport', () => {
  it('retries retryable answers with backoff until success', async () => {
    const inner = fakeTransport([unavailable(), reset(), unavailable(), success]);
    const retrying = createRetryingTransport(inner, { random: () => 0 });

    await expect(retrying.send(request, START + 25_000)).resolves.toBe(success);
    expect(inner.calls).toHaveLength(4);
    expect(clock.sleeps).toEqual([125, 250, 500]);
  });

  it('waits what Retry-After asked for instead of the backoff', async () => {
    const inner = fakeTransport([unavailable(3_000), unavailable(0), success]);
    const retrying = createRetryingTransport(inner, { random: () => 0 });

    await expect(retrying.send(request, START + 25_000)).resolves.toBe(success);
    expect(clock.sleeps).toEqual([3_000, 0]);
    expect(inner.calls.map((c) => c.at - START)).toEqual([0, 3_000, 3_000]);
  });

  it('returns the last retryable answer at once when the wait would pass the deadline', async () => {
    const last = unavailable(10_000);
    const inner = fakeTransport([unavailable(1_000), last]);
    const onRetry = vi.fn();
    const retrying = createRetryingTransport(inner, { onRetry });

    await expect(retrying.send(request, START + 5_000)).resolves.toBe(last);
    expect(inner.calls).toHaveLength(2);
    expect(clock.sleeps).toEqual([1_000]);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('never sleeps past the deadline with backoff alone', async () => {
    const deadline = START + 2_000;
    const inner = fakeTransport(Array.from({ length: 20 }, () => unavailable()));
    const retrying = createRetryingTransport(inner, { random: () => 0.999 });

    const response = await retrying.send(request, deadline);
    expect(response.status).toBe('retryable');
    expect(clock.now).toBeLessThan(deadline);
    // 250 + 500 + 1000 ms of backoff fit; the next step (~2 s) does not, so it stops there.
    expect(clock.sleeps).toEqual([250, 500, 1_000]);
    expect(inner.calls).toHaveLength(4);
    for (const call of inner.calls) expect(call.at).toBeLessThan(deadline);
  });

  it('does not retry at all when the deadline has already passed', async () => {
    const inner = fakeTransport([unavailable(0)]);
    const retrying = createRetryingTransport(inner);
    await expect(retrying.send(request, START - 1)).resolves.toMatchObject({ status: 'retryable' });
    expect(inner.calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('returns a failure at once, without retrying', async () => {
    const failure: ExportResponse = {
      status: 'failure',
      statusCode: 401,
      error: new HttpError(401, 'unauthorized', 'unknown API key'),
    };
    const inner = fakeTransport([failure, success]);
    const onRetry = vi.fn();
    const retrying = createRetryingTransport(inner, { onRetry });

    await expect(retrying.send(request, START + 25_000)).resolves.toBe(failure);
    expect(inner.calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('sends the very same request, with the same Idempotency-Key, on every attempt', async () => {
    const inner = fakeTransport([unavailable(1), reset(), unavailable(1), success]);
    const retrying = createRetryingTransport(inner, { random: () => 0 });

    await retrying.send(request, START + 25_000);
    expect(inner.calls).toHaveLength(4);
    for (const call of inner.calls) {
      expect(call.request).toBe(request);
      expect(call.request.headers['idempotency-key']).toBe(request.headers['idempotency-key']);
      expect(call.deadline).toBe(START + 25_000);
    }
  });

  it('calls onRetry once per retry, with the answer being retried', async () => {
    const first = unavailable(1);
    const second = reset();
    const inner = fakeTransport([first, second, success]);
    const onRetry = vi.fn();
    const retrying = createRetryingTransport(inner, { onRetry, random: () => 0 });

    await retrying.send(request, START + 25_000);
    expect(onRetry.mock.calls).toEqual([[first], [second]]);
  });

  it('closes the inner transport', async () => {
    const inner = fakeTransport([]);
    await createRetryingTransport(inner).close();
    expect(inner.close).toHaveBeenCalledTimes(1);
  });
});
