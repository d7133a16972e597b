import { describe, expect, it } from 'vitest';
import { createFaultRegistry } from '../../../src/receiver/control/fault-rules.js';

const ALICE = { username: 'alice', resource: '6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c' };
const BOB = { username: 'bob', resource: '0b7c5a2e-1d3f-4e6a-8b9c-0d1e2f3a4b5c' };

describe('createFaultRegistry', () => {
  it('fires a rule without a match for every request, and counts it', () => {
    const faults = createFaultRegistry();
    const rule = faults.add({ action: { status: 503, retryAfter: 2 } });
    expect(rule).toEqual({ id: 'fault-1', fired: 0, action: { status: 503, retryAfter: 2 } });
    expect(faults.fire(ALICE)?.id).toBe('fault-1');
    expect(faults.fire(BOB)?.id).toBe('fault-1');
    expect(faults.list()).toEqual([{ ...rule, fired: 2 }]);
  });

  it('matches by username and by resource, the resource case-insensitively', () => {
    const faults = createFaultRegistry();
    faults.add({ match: { username: 'bob' }, action: { reset: true } });
    faults.add({ match: { resource: ALICE.resource.toUpperCase() }, action: { delayMillis: 5 } });
    expect(faults.fire(BOB)?.action).toEqual({ reset: true });
    expect(faults.fire(ALICE)?.action).toEqual({ delayMillis: 5 });
    expect(faults.fire({ username: 'carol', resource: BOB.resource })).toBeUndefined();
  });

  it('needs every field of a match to hold', () => {
    const faults = createFaultRegistry();
    faults.add({ match: { username: 'alice', resource: BOB.resource }, action: { reset: true } });
    expect(faults.fire(ALICE)).toBeUndefined();
    expect(faults.fire(BOB)).toBeUndefined();
    expect(faults.fire({ username: 'alice', resource: BOB.resource })).toBeDefined();
  });

  it('spends a rule after count firings, then the next matching rule fires', () => {
    const faults = createFaultRegistry();
    faults.add({ count: 2, action: { status: 503 } });
    faults.add({ action: { commitThenReset: true } });
    const actions = [1, 2, 3].map(() => faults.fire(ALICE)?.action);
    expect(actions).toEqual([{ status: 503 }, { status: 503 }, { commitThenReset: true }]);
    expect(faults.list().map((rule) => rule.fired)).toEqual([2, 1]);
  });

  it('with a seed, fires the same requests run after run, about probability of them', () => {
    const run = () => {
      const faults = createFaultRegistry();
      faults.add({ probability: 0.3, seed: 42, action: { status: 500 } });
      return Array.from({ length: 1000 }, () => faults.fire(ALICE) !== undefined);
    };
    const first = run();
    expect(run()).toEqual(first);
    const fired = first.filter(Boolean).length;
    expect(fired).toBeGreaterThan(230);
    expect(fired).toBeLessThan(370);
  });

  it('never fires at probability 0, always at probability 1', () => {
    const faults = createFaultRegistry();
    faults.add({ probability: 0, seed: 1, action: { status: 500 } });
    faults.add({ probability: 1, seed: 1, action: { status: 429 } });
    for (let i = 0; i < 50; i++) expect(faults.fire(ALICE)?.action).toEqual({ status: 429 });
  });

  it('removes one rule by id, clears all, and hands out copies', () => {
    const faults = createFaultRegistry();
    const first = faults.add({ action: { status: 503 } });
    faults.add({ action: { status: 429 } });
    const listed = faults.list();
    (listed[0] as { fired: number }).fired = 99;
    expect(faults.list()[0]?.fired).toBe(0);
    expect(faults.remove(first.id)).toBe(true);
    expect(faults.remove(first.id)).toBe(false);
    expect(faults.fire(ALICE)?.action).toEqual({ status: 429 });
    faults.clear();
    expect(faults.list()).toEqual([]);
    expect(faults.fire(ALICE)).toBeUndefined();
    expect(faults.add({ action: { reset: true } }).id).toBe('fault-3');
  });
});
