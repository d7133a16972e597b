import { describe, expect, it } from 'vitest';
import {
  backoffMillis,
  DEFAULT_BACKOFF,
  isRetryableStatus,
  parseRetryAfter,
} from '../../src/transport/retry-rules.js';

describe('isRetryableStatus', () => {
  it.each([429, 502, 503, 504])('%i is retried', (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });

  it.each([200, 202, 400, 401, 403, 404, 408, 413, 415, 422, 500, 501, 505])(
    '%i is not retried',
    (status) => {
      expect(isRetryableStatus(status)).toBe(false);
    },
  );
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T04:15:27Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 3 ', now)).toBe(3_000);
  });

  it('reads fractional seconds, rounding up to whole milliseconds', () => {
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
    expect(parseRetryAfter('0.0001', now)).toBe(1);
  });

  it('reads an HTTP date in the future as milliseconds from now', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 04:15:32 GMT', now)).toBe(5_000);
  });

  it('reads the obsolete RFC 850 and asctime date forms too', () => {
    expect(parseRetryAfter('Saturday, 21-Nov-26 04:15:37 GMT', now)).toBe(10_000);
    // asctime carries no zone; RFC 9110 says HTTP dates are UTC.
    expect(parseRetryAfter('Sat Nov 21 04:15:29 2026', now)).toBe(2_000);
  });

  it('reads an HTTP date in the past (or now) as 0', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 04:15:27 GMT', now)).toBe(0);
  });

  it.each([
    'soon',
    'abc',
    '-1',
    '-5',
    '1e3',
    '0x10',
    '5 seconds',
    'x 5',
    'foo 12',
    'Sat, 21 Nov 2026',
    '',
    '   ',
  ])('garbage %j → undefined', (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined();
  });

  it('absent → undefined', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('uses the first value of a repeated header', () => {
    expect(parseRetryAfter(['2', '9'], now)).toBe(2_000);
    expect(parseRetryAfter(['Sat, 21 Nov 2026 04:15:28 GMT'], now)).toBe(1_000);
    expect(parseRetryAfter([], now)).toBeUndefined();
  });
});

describe('backoffMillis', () => {
  it('grows exponentially from the initial step', () => {
    expect([0, 1, 2, 3, 4].map((retry) => backoffMillis(retry, 0))).toEqual([
      125, 250, 500, 1_000, 2_000,
    ]);
    expect([0, 1, 2, 3, 4].map((retry) => backoffMillis(retry, 0.999_999))).toEqual([
      250, 500, 1_000, 2_000, 4_000,
    ]);
  });

  it('is capped at maxMillis, even after very many retries', () => {
    for (const retry of [5, 6, 10, 100, 5_000]) {
      expect(backoffMillis(retry, 0.999_999)).toBe(DEFAULT_BACKOFF.maxMillis);
      expect(backoffMillis(retry, 0)).toBe(DEFAULT_BACKOFF.maxMillis / 2);
    }
  });

  it('jitters within [step / 2, step], never down to zero', () => {
    for (let retry = 0; retry < 12; retry++) {
      const step = Math.min(DEFAULT_BACKOFF.maxMillis, DEFAULT_BACKOFF.initialMillis * 2 ** retry);
      for (let i = 0; i < 50; i++) {
        const delay = backoffMillis(retry, Math.random());
        expect(delay).toBeGreaterThanOrEqual(step / 2);
        expect(delay).toBeLessThanOrEqual(step);
        expect(delay).toBeGreaterThan(0);
      }
    }
  });

  it('follows a custom policy', () => {
    const policy = { initialMillis: 10, maxMillis: 35, multiplier: 3 };
    expect([0, 1, 2, 3].map((retry) => backoffMillis(retry, 0, policy))).toEqual([5, 15, 18, 18]);
  });
});
