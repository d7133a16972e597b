import { describe, expect, it } from 'vitest';
import { createCircuitBreaker } from '../../src/exporter/circuit-breaker.js';

const T = 'alice/3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const OTHER = 'bob/11111111-1111-4111-8111-111111111111';

describe('circuit breaker', () => {
  it('stays closed for two permanent failures and opens on the third', () => {
    const breaker = createCircuitBreaker();
    breaker.permanentFailure(T, 0);
    breaker.permanentFailure(T, 1);
    expect(breaker.pausedFor(T, 2)).toBe(0);
    breaker.permanentFailure(T, 1_000);
    expect(breaker.pausedFor(T, 1_000)).toBe(30_000);
    expect(breaker.pausedFor(T, 30_999)).toBe(1);
  });

  it('lets one request through after the pause and doubles the pause when it fails again', () => {
    const breaker = createCircuitBreaker();
    for (let i = 0; i < 3; i++) breaker.permanentFailure(T, 0);
    expect(breaker.pausedFor(T, 30_000)).toBe(0); // half-open

    breaker.permanentFailure(T, 30_000);
    expect(breaker.pausedFor(T, 30_000)).toBe(60_000);
    breaker.permanentFailure(T, 90_000);
    expect(breaker.pausedFor(T, 90_000)).toBe(120_000);
    breaker.permanentFailure(T, 210_000);
    expect(breaker.pausedFor(T, 210_000)).toBe(240_000);
  });

  it('caps the pause at maxPauseMillis', () => {
    const breaker = createCircuitBreaker();
    let now = 0;
    for (let i = 0; i < 12; i++) {
      breaker.permanentFailure(T, now);
      now += breaker.pausedFor(T, now);
    }
    breaker.permanentFailure(T, now);
    expect(breaker.pausedFor(T, now)).toBe(300_000);
  });

  it('closes on success and needs three new failures to open again', () => {
    const breaker = createCircuitBreaker();
    for (let i = 0; i < 4; i++) breaker.permanentFailure(T, 0);
    breaker.success(T);
    expect(breaker.pausedFor(T, 0)).toBe(0);

    breaker.permanentFailure(T, 10);
    breaker.permanentFailure(T, 10);
    expect(breaker.pausedFor(T, 10)).toBe(0);
    breaker.permanentFailure(T, 10);
    // Back to the first pause, not the doubled one.
    expect(breaker.pausedFor(T, 10)).toBe(30_000);
  });

  it('a success between failures resets the count', () => {
    const breaker = createCircuitBreaker();
    breaker.permanentFailure(T, 0);
    breaker.permanentFailure(T, 0);
    breaker.success(T);
    breaker.permanentFailure(T, 0);
    expect(breaker.pausedFor(T, 0)).toBe(0);
  });

  it('keeps targets apart', () => {
    const breaker = createCircuitBreaker();
    for (let i = 0; i < 3; i++) breaker.permanentFailure(T, 0);
    expect(breaker.pausedFor(T, 0)).toBeGreaterThan(0);
    expect(breaker.pausedFor(OTHER, 0)).toBe(0);
  });

  it('follows custom options', () => {
    const breaker = createCircuitBreaker({ threshold: 1, pauseMillis: 100, maxPauseMillis: 150 });
    breaker.permanentFailure(T, 0);
    expect(breaker.pausedFor(T, 0)).toBe(100);
    breaker.permanentFailure(T, 100);
    expect(breaker.pausedFor(T, 100)).toBe(150);
  });
});
