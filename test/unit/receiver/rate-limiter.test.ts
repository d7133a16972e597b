import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../../src/receiver/http/rate-limiter.js';

function limiter(ratePerSecond: number, burst: number) {
  let now = 1_000_000;
  const limit = createRateLimiter(ratePerSecond, burst, () => now);
  return { limit, advance: (millis: number) => (now += millis) };
}

describe('createRateLimiter', () => {
  it('allows a full burst at once, then refuses with the whole seconds to wait', () => {
    const { limit } = limiter(2, 3);
    expect([limit.take('k'), limit.take('k'), limit.take('k')]).toEqual([0, 0, 0]);
    // Empty bucket at 2 tokens/s: the next token comes in 0.5 s, announced as 1 s (never 0).
    expect(limit.take('k')).toBe(1);
  });

  it('refills at the rate, up to the burst and no further', () => {
    const { limit, advance } = limiter(10, 5);
    for (let i = 0; i < 5; i++) expect(limit.take('k')).toBe(0);
    expect(limit.take('k')).toBe(1);
    advance(100); // one token
    expect(limit.take('k')).toBe(0);
    expect(limit.take('k')).toBe(1);
    advance(60_000); // far more than the burst
    for (let i = 0; i < 5; i++) expect(limit.take('k')).toBe(0);
    expect(limit.take('k')).toBe(1);
  });

  it('rounds the wait up to whole seconds at slow rates', () => {
    const { limit, advance } = limiter(0.25, 1);
    expect(limit.take('k')).toBe(0);
    expect(limit.take('k')).toBe(4);
    advance(1_000);
    expect(limit.take('k')).toBe(3);
  });

  it('keeps one bucket per key', () => {
    const { limit } = limiter(1, 1);
    expect(limit.take('alice')).toBe(0);
    expect(limit.take('alice')).toBe(1);
    expect(limit.take('bob')).toBe(0);
  });

  it('reset() refills every bucket', () => {
    const { limit } = limiter(1, 1);
    limit.take('alice');
    expect(limit.take('alice')).toBe(1);
    limit.reset();
    expect(limit.take('alice')).toBe(0);
  });

  it('is off at rate 0', () => {
    const { limit } = limiter(0, 0);
    for (let i = 0; i < 1000; i++) expect(limit.take('k')).toBe(0);
  });
});
