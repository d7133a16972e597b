import { describe, expect, it, vi } from 'vitest';
import { userOwner } from '../../src/config/owner.js';
import { ErrorCodes, HttpError, NetworkError, ReslogError } from '../../src/errors.js';
import { createKeyResolver } from '../../src/exporter/key-resolver.js';
import type {
  ExportResponse,
  HttpRequest,
  Transport,
} from '../../src/transport/export-response.js';

const UUID = '3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const STATIC_UUID = '11111111-1111-4111-8111-111111111111';
const HEADERS = { 'x-api-key': 'rlk_1_secret' };
const DEADLINE = Date.now() + 60_000;

const found = (uuid: string = UUID): ExportResponse => ({
  status: 'success',
  statusCode: 200,
  json: { uuid, key: 'checkout' },
});
const notFound = (): ExportResponse => ({
  status: 'failure',
  statusCode: 404,
  error: new HttpError(404, 'not_found', 'resource not found'),
});

/** A transport whose answers the test controls; each request waits until `answer` is called. */
function fakeTransport() {
  const requests: HttpRequest[] = [];
  const pending: ((response: ExportResponse) => void)[] = [];
  const transport: Transport = {
    send: vi.fn(
      (request: HttpRequest) =>
        new Promise<ExportResponse>((resolve) => {
          requests.push(request);
          pending.push(resolve);
        }),
    ),
    close: async () => {},
  };
  const answer = (response: ExportResponse) => {
    const next = pending.shift();
    if (!next) throw new Error('no request is waiting for an answer');
    next(response);
  };
  /** Answers every request, now and later, with `response()`. */
  const always = (response: () => ExportResponse) => {
    vi.mocked(transport.send).mockImplementation(async (request) => {
      requests.push(request);
      return response();
    });
  };
  return { transport, requests, answer, always };
}

function resolverWith(fake: ReturnType<typeof fakeTransport>, pathPrefix = '') {
  const onLookupFailed = vi.fn();
  const resolver = createKeyResolver({
    staticKeys: new Map([['static-key', STATIC_UUID]]),
    pathPrefix,
    headers: HEADERS,
    transport: fake.transport,
    onLookupFailed,
  });
  return { resolver, onLookupFailed };
}

describe('key resolver', () => {
  it('answers from the static resourceKeys map without a request', async () => {
    const fake = fakeTransport();
    const { resolver } = resolverWith(fake);
    await expect(resolver.resolve(userOwner('alice'), 'static-key', DEADLINE)).resolves.toBe(
      STATIC_UUID,
    );
    expect(fake.transport.send).not.toHaveBeenCalled();
  });

  it('looks a key up with GET /u/{username}/resources/by-key/{key} below the base path', async () => {
    const fake = fakeTransport();
    fake.always(() => found(UUID.toUpperCase()));
    const { resolver } = resolverWith(fake, '/logging');

    await expect(resolver.resolve(userOwner('alice'), 'checkout.api', DEADLINE)).resolves.toBe(
      UUID,
    );
    expect(fake.requests).toEqual([
      {
        method: 'GET',
        path: '/logging/u/alice/resources/by-key/checkout.api',
        headers: HEADERS,
      },
    ]);
    expect(fake.transport.send).toHaveBeenCalledWith(expect.anything(), DEADLINE);
  });

  it('caches a found UUID per owner and key', async () => {
    const fake = fakeTransport();
    fake.always(() => found());
    const { resolver } = resolverWith(fake);

    await resolver.resolve(userOwner('alice'), 'checkout', DEADLINE);
    await resolver.resolve(userOwner('alice'), 'checkout', DEADLINE);
    await resolver.resolve(userOwner('alice'), 'checkout', DEADLINE);
    expect(fake.requests).toHaveLength(1);

    await resolver.resolve(userOwner('bob'), 'checkout', DEADLINE);
    await resolver.resolve(userOwner('alice'), 'billing', DEADLINE);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/u/alice/resources/by-key/checkout',
      '/u/bob/resources/by-key/checkout',
      '/u/alice/resources/by-key/billing',
    ]);
  });

  it('shares one request between concurrent lookups of the same key', async () => {
    const fake = fakeTransport();
    const { resolver } = resolverWith(fake);

    const lookups = [1, 2, 3].map(() => resolver.resolve(userOwner('alice'), 'checkout', DEADLINE));
    await Promise.resolve();
    expect(fake.requests).toHaveLength(1);
    fake.answer(found());
    await expect(Promise.all(lookups)).resolves.toEqual([UUID, UUID, UUID]);
  });

  it('does not cache a failure, reports it once per request, and asks again next time', async () => {
    const fake = fakeTransport();
    const { resolver, onLookupFailed } = resolverWith(fake);

    const concurrent = [1, 2].map(() => resolver.resolve(userOwner('alice'), 'checkout', DEADLINE));
    fake.answer(notFound());
    const results = await Promise.all(concurrent);
    for (const result of results) {
      expect(result).toBeInstanceOf(ReslogError);
      expect(result).toMatchObject({ code: ErrorCodes.KEY_LOOKUP_FAILED });
      expect((result as ReslogError).message).toContain('checkout');
    }
    expect(onLookupFailed).toHaveBeenCalledTimes(1);
    expect(onLookupFailed).toHaveBeenCalledWith(results[0]);

    const retry = resolver.resolve(userOwner('alice'), 'checkout', DEADLINE);
    await Promise.resolve();
    expect(fake.requests).toHaveLength(2);
    fake.answer(found());
    await expect(retry).resolves.toBe(UUID);
    expect(onLookupFailed).toHaveBeenCalledTimes(1);
  });

  it('treats a network error and an answer without a valid uuid as failures', async () => {
    const fake = fakeTransport();
    const answers: ExportResponse[] = [
      { status: 'retryable', statusCode: 0, error: new NetworkError('connection refused') },
      { status: 'success', statusCode: 200, json: { key: 'checkout' } },
      { status: 'success', statusCode: 200, json: { uuid: 'not-a-uuid' } },
      { status: 'success', statusCode: 200, json: undefined },
    ];
    fake.always(() => answers.shift() ?? found());
    const { resolver, onLookupFailed } = resolverWith(fake);

    for (let i = 0; i < 4; i++) {
      expect(await resolver.resolve(userOwner('alice'), 'checkout', DEADLINE)).toMatchObject({
        code: ErrorCodes.KEY_LOOKUP_FAILED,
      });
    }
    expect(onLookupFailed).toHaveBeenCalledTimes(4);
    await expect(resolver.resolve(userOwner('alice'), 'checkout', DEADLINE)).resolves.toBe(UUID);
  });

  it('never puts the API key in the error', async () => {
    const fake = fakeTransport();
    fake.always(notFound);
    const { resolver } = resolverWith(fake);
    const error = await resolver.resolve(userOwner('alice'), 'checkout', DEADLINE);
    expect(String((error as Error).message)).not.toContain(HEADERS['x-api-key']);
  });
});
