import { diag } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createThrottledDiag } from '../../src/exporter/throttled-diag.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('throttled diag', () => {
  it('emits once per topic and interval, then reports how many lines it held back', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const warn = vi.spyOn(diag, 'warn').mockImplementation(() => undefined);
    const throttled = createThrottledDiag(['sk-123'], 10_000);

    for (let i = 0; i < 5; i++) throttled.warn('rejected for a', 'failed with key sk-123');
    throttled.warn('rejected for b', 'other target');
    vi.advanceTimersByTime(10_000);
    throttled.warn('rejected for a', 'failed again');

    expect(warn.mock.calls.map((call) => call[0])).toEqual([
      'reslog: failed with key [REDACTED]',
      'reslog: other target',
      'reslog: failed again (4 similar messages suppressed)',
    ]);
  });
});
