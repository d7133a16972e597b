import { describe, expect, it, vi } from 'vitest';
import { ReslogError } from '../../src/errors.js';
import { createExportStats } from '../../src/exporter/export-stats.js';

const T = 'alice/3f1c2b4a-9d8e-4f7a-8b6c-5d4e3f2a1b0c';

describe('export stats', () => {
  it('starts with every counter at zero', () => {
    expect(createExportStats(undefined).snapshot()).toEqual({
      exported: 0,
      retried: 0,
      filtered: 0,
      encodingFallbacks: 0,
      dropped: {
        unmapped: 0,
        unresolved_key: 0,
        rejected: 0,
        oversize: 0,
        retry_budget: 0,
        shutdown: 0,
        backlog_full: 0,
        expired: 0,
        spool_corrupt: 0,
        circuit_open: 0,
      },
      keyLookupFailures: 0,
      backlog: { bytes: 0, batches: 0 },
      spool: undefined,
      targets: {},
    });
  });

  it('counts exported, retried and dropped records overall and per target', () => {
    const stats = createExportStats(undefined);
    stats.exported(T, 5, 202);
    stats.retried();
    stats.retried();
    stats.dropped('rejected', 2, T, undefined, 400);
    stats.dropped('unmapped', 3);
    stats.keyLookupFailed();

    expect(stats.snapshot()).toMatchObject({
      exported: 5,
      retried: 2,
      dropped: { rejected: 2, unmapped: 3 },
      keyLookupFailures: 1,
      targets: { [T]: { exported: 5, dropped: 2, lastStatus: 400 } },
    });
  });

  it('tells onDrop each drop with reason, count, target and error', () => {
    const onDrop = vi.fn();
    const stats = createExportStats(onDrop);
    const error = new ReslogError('RESLOG_HTTP_ERROR', 'bad request');
    stats.dropped('rejected', 2, T, error, 400);
    stats.dropped('unmapped', 1);
    stats.dropped('oversize', 0, T);

    expect(onDrop.mock.calls).toEqual([
      [{ reason: 'rejected', count: 2, target: T, error }],
      [{ reason: 'unmapped', count: 1 }],
    ]);
  });

  it('ignores an onDrop that throws, and still counts', () => {
    const stats = createExportStats(() => {
      throw new Error('user bug');
    });
    expect(() => stats.dropped('shutdown', 1)).not.toThrow();
    expect(stats.snapshot().dropped.shutdown).toBe(1);
  });

  it('returns a snapshot the caller cannot use to change the counters', () => {
    const stats = createExportStats(undefined);
    stats.exported(T, 1, 202);
    const snapshot = stats.snapshot();
    snapshot.dropped.rejected = 99;
    const target = snapshot.targets[T];
    if (target) target.exported = 99;
    expect(stats.snapshot()).toMatchObject({
      dropped: { rejected: 0 },
      targets: { [T]: { exported: 1 } },
    });
  });
});
