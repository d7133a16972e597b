import { describe, expect, it } from 'vitest';
import { dropOrder, type StoredNumbers } from '../../bench/drop-order.ts';

/** Records `0 … emitted-1` stored but for the `missing` ranges (both ends included). */
function numbers(emitted: number, missing: Array<[number, number]>, duplicates = 0): StoredNumbers {
  const stored = new Uint8Array(emitted).fill(1);
  for (const [first, last] of missing) stored.fill(0, first, last + 1);
  const rows = stored.reduce((sum, n) => sum + n, 0) + duplicates;
  return { stored, rows, duplicates, foreign: 0 };
}

const base = {
  storedBeforeOutage: 1000,
  emittedAtOutage: 1400,
  droppedByQueue: 0,
  batchRecords: 512,
};

describe('scenario 6 drop order', () => {
  it('passes when the exporter dropped one range of the oldest records of the outage', () => {
    const order = dropOrder({
      ...base,
      numbers: numbers(10_000, [[1000, 5095]]),
      droppedByExporter: 4096,
    });
    expect(order).toMatchObject({ oldestFirst: true, missingRanges: 1, missingRecords: 4096 });
    expect(order.keptInFlight).toBeUndefined();
  });

  it('allows the one batch in flight when the receiver came back to be stored', () => {
    const order = dropOrder({
      ...base,
      numbers: numbers(10_000, [
        [1000, 4583],
        [5096, 5607],
      ]),
      droppedByExporter: 4096,
    });
    expect(order.oldestFirst).toBe(true);
    expect(order.keptInFlight).toEqual({ first: 4584, last: 5095 });
  });

  it('fails when newer records are missing after the dropped range', () => {
    const order = dropOrder({
      ...base,
      numbers: numbers(10_000, [
        [1000, 3047],
        [7000, 9047],
      ]),
      droppedByExporter: 4096,
    });
    expect(order.oldestFirst).toBe(false);
    expect(order.failure).toMatch(/holds 2048 records, the exporter dropped 4096/);
  });

  it('counts records missing after the range against the processor queue drops', () => {
    const input = {
      ...base,
      numbers: numbers(10_000, [
        [1000, 5095],
        [9990, 9999],
      ]),
    };
    expect(dropOrder({ ...input, droppedByExporter: 4096, droppedByQueue: 10 }).oldestFirst).toBe(
      true,
    );
    expect(dropOrder({ ...input, droppedByExporter: 4096 }).failure).toMatch(
      /10 records missing after #5095/,
    );
  });

  it('fails when a record stored before the outage is missing, or one is stored twice', () => {
    expect(
      dropOrder({ ...base, numbers: numbers(10_000, [[999, 5094]]), droppedByExporter: 4096 })
        .failure,
    ).toMatch(/#999 is missing/);
    expect(
      dropOrder({ ...base, numbers: numbers(10_000, [[1000, 5095]], 1), droppedByExporter: 4096 })
        .failure,
    ).toMatch(/1 records stored twice/);
  });

  it('fails when nothing was dropped: the scenario did not outgrow the backlog', () => {
    expect(
      dropOrder({ ...base, numbers: numbers(10_000, []), droppedByExporter: 0 }).failure,
    ).toMatch(/dropped nothing/);
  });
});
