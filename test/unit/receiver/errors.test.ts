import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  RECEIVER_ERRORS,
  type ReceiverErrorCode,
  ReceiverErrorCodes,
  ReceiverHttpError,
  ReceiverOptionError,
  ReceiverSetupErrorCodes,
  receiverError,
  SeedError,
} from '../../../src/receiver/errors.js';
import { normalizePathPrefix } from '../../../src/receiver/http/path-prefix.js';
import {
  normalizeHealthCheckOptions,
  normalizeLimits,
  normalizeNotificationOptions,
} from '../../../src/receiver/receiver-options.js';
import { validateSeed } from '../../../src/receiver/seed.js';

const CODES = Object.keys(RECEIVER_ERRORS) as ReceiverErrorCode[];

/** The rows of docs/errors.md's first table under "## Receiver": code → status cell. */
function documentedReceiverCodes(): Map<string, string> {
  const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
  const section = doc.split(/^## Receiver$/m)[1];
  if (section === undefined) throw new Error('docs/errors.md has no "## Receiver" section');
  const rows = new Map<string, string>();
  let inTable = false;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = line.split('|').map((cell) => cell.trim());
    const code = /^`([a-z_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (code !== undefined) rows.set(code, cells[2] ?? '');
  }
  return rows;
}

describe('RECEIVER_ERRORS', () => {
  it.each(CODES)('%s has a 4xx or 5xx status and a message', (code) => {
    const { status, message } = RECEIVER_ERRORS[code];
    expect(Number.isInteger(status) && status >= 400 && status <= 599).toBe(true);
    expect(message.length).toBeGreaterThan(0);
  });

  it('is what ReceiverErrorCodes names, no more and no less', () => {
    expect(Object.values(ReceiverErrorCodes).sort()).toEqual([...CODES].sort());
  });

  it('keeps the statuses clients and tests rely on', () => {
    expect(RECEIVER_ERRORS.invalid_resource.status).toBe(404);
    expect(RECEIVER_ERRORS.overloaded.status).toBe(503);
    expect(RECEIVER_ERRORS.not_ready.status).toBe(503);
    expect(RECEIVER_ERRORS.rate_limited.status).toBe(429);
    expect(RECEIVER_ERRORS.idempotency_key_reused.status).toBe(422);
  });
});

describe('docs/errors.md lists every receiver code', () => {
  const documented = documentedReceiverCodes();

  it('with the same set of codes as RECEIVER_ERRORS', () => {
    expect([...documented.keys()].sort()).toEqual([...CODES].sort());
  });

  it.each(CODES)('%s with its status', (code) => {
    const entry: { status: number; statusVaries?: true } = RECEIVER_ERRORS[code];
    expect(documented.get(code)).toBe(entry.statusVaries ? 'any' : String(entry.status));
  });
});

describe('receiverError', () => {
  it('takes status and message from the table when the call site gives none', () => {
    const error = receiverError('invalid_api_key');
    expect(error).toBeInstanceOf(ReceiverHttpError);
    expect(error).toMatchObject({
      statusCode: 401,
      code: 'invalid_api_key',
      message: RECEIVER_ERRORS.invalid_api_key.message,
      retryAfterSeconds: undefined,
    });
  });

  it('keeps the call site message, Retry-After and, where it varies, the status', () => {
    expect(receiverError('not_found', 'team not found')).toMatchObject({
      statusCode: 404,
      message: 'team not found',
    });
    expect(receiverError('overloaded', undefined, { retryAfterSeconds: 1 })).toMatchObject({
      statusCode: 503,
      retryAfterSeconds: 1,
    });
    expect(receiverError('fault_injected', 'fault f1', { status: 502 }).statusCode).toBe(502);
  });

  it('makes the shared ErrorBody shape', () => {
    const body = receiverError('conflict', 'team a exists').toBody('req-1');
    expect(body).toEqual({
      error: { code: 'conflict', message: 'team a exists', request_id: 'req-1' },
    });
  });
});

describe('errors thrown before the receiver serves', () => {
  it.each([
    ['a limit', () => normalizeLimits({ maxDepth: 0 })],
    ['an unknown limit', () => normalizeLimits({ nope: 1 } as never)],
    ['a notification option', () => normalizeNotificationOptions({ pollMillis: -1 })],
    ['a health check option', () => normalizeHealthCheckOptions({ failuresUntilDown: 0 })],
    ['pathPrefix', () => normalizePathPrefix('no-slash')],
  ])('%s: ReceiverOptionError, a TypeError with a code', (_what, build) => {
    let thrown: unknown;
    try {
      build();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ReceiverOptionError);
    expect(thrown).toBeInstanceOf(TypeError);
    expect(thrown).toMatchObject({
      code: 'RESLOG_RECEIVER_INVALID_OPTION',
      name: 'ReceiverOptionError',
    });
    expect(ReceiverSetupErrorCodes.INVALID_OPTION).toBe('RESLOG_RECEIVER_INVALID_OPTION');
  });

  it('a bad seed: SeedError with a code, the message naming the entry', () => {
    let thrown: unknown;
    try {
      validateSeed({ accounts: [{ username: 'Not Valid', api_keys: [] }] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SeedError);
    expect(thrown).toMatchObject({ code: 'RESLOG_INVALID_SEED', name: 'SeedError' });
    expect((thrown as Error).message).toMatch(/^invalid seed: accounts\[0\]/);
  });
});
