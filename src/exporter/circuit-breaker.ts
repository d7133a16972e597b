/**
 * Pauses a target after repeated permanent failures (a revoked key, a deleted resource), so a
 * misconfigured target does not hammer the service on every export. After the pause one
 * request goes through (half-open): success closes the circuit, failure doubles the pause.
 */
export interface CircuitBreaker {
  /** Milliseconds the target stays paused, or 0 when a request may go. */
  pausedFor(target: string, now: number): number;
  success(target: string): void;
  permanentFailure(target: string, now: number): void;
}

export interface CircuitBreakerOptions {
  /** Consecutive permanent failures that open the circuit. @default 3 */
  readonly threshold?: number;
  /** First pause. @default 30000 */
  readonly pauseMillis?: number;
  /** Longest pause. @default 300000 */
  readonly maxPauseMillis?: number;
}

interface TargetState {
  failures: number;
  openUntil: number;
  pauseMillis: number;
}

export function createCircuitBreaker(options: CircuitBreakerOptions = {}): CircuitBreaker {
  const threshold = options.threshold ?? 3;
  const firstPause = options.pauseMillis ?? 30_000;
  const maxPause = options.maxPauseMillis ?? 300_000;
  const states = new Map<string, TargetState>();

  return {
    pausedFor(target, now) {
      const state = states.get(target);
      if (!state || state.openUntil <= now) return 0;
      return state.openUntil - now;
    },
    success(target) {
      states.delete(target);
    },
    permanentFailure(target, now) {
      const state = states.get(target) ?? { failures: 0, openUntil: 0, pauseMillis: 0 };
      state.failures++;
      if (state.failures >= threshold) {
        state.pauseMillis =
          state.pauseMillis === 0 ? firstPause : Math.min(maxPause, state.pauseMillis * 2);
        state.openUntil = now + state.pauseMillis;
      }
      states.set(target, state);
    },
  };
}
