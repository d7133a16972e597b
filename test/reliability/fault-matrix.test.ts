import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from './helpers/fault-proxy.ts';
import {
  ADMIN_TOKEN,
  API_KEY,
  droppedTotal,
  formatTable,
  RESOURCES,
  type RowResult,
  type RowSpec,
  runRow,
} from './helpers/matrix.ts';
import { killAllReceivers, printed } from './helpers/receiver-process.ts';

/**
 * The fault matrix of docs/reliability.md: exporter → (fault proxy →) receiver CLI with a file
 * database, every record with a unique id, counted in the database afterwards.
 * `npm test` runs every row with 5 000 records; `npm run test:reliability`
 * (RESLOG_RELIABILITY_FULL=1) runs them with 50 000 and writes the figures to
 * RESLOG_RELIABILITY_OUT.
 */
const FULL = process.env.RESLOG_RELIABILITY_FULL === '1';
const RECORDS = FULL ? 50_000 : 5_000;
const EXPORT_SIZE = 250;
const ROW_TIMEOUT = FULL ? 600_000 : 90_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A proxy decision: `fault` with probability `p`, from a seeded generator. */
function sometimes(p: number, seed: number, fault: ReturnType<NonNullable<RowSpec['proxyFault']>>) {
  const random = seededRandom(seed);
  return () => (random() < p ? fault : { kind: 'pass' as const });
}

// Three resources: three targets the exporter serves concurrently, one request in flight each.
const base = { records: RECORDS, exportSize: EXPORT_SIZE, resources: 3 };
const ROWS: RowSpec[] = [
  { ...base, row: 'baseline', fault: 'none' },
  {
    ...base,
    row: '503 bursts',
    fault: `receiver: a burst of 3 × 503 Retry-After: 1 at every ${FULL ? 10 : 25} % of the stream`,
    async during(ctx) {
      // A burst at every 25 % (10 % in the full run) of the records acknowledged.
      const step = FULL ? 0.1 : 0.25;
      for (let share = step; share < 0.99; share += step) {
        while (!ctx.done() && ctx.stats().exported < RECORDS * share) await sleep(10);
        if (ctx.done()) return;
        await ctx.control('POST', '/_receiver/faults', {
          count: 3,
          action: { status: 503, retryAfter: 1 },
        });
      }
    },
  },
  {
    ...base,
    row: '429 rate limit',
    fault: 'receiver: real per-key limiter, 20 requests/s, burst 10',
    receiverArgs: ['--rate-limit', '20', '--rate-burst', '10'],
  },
  {
    ...base,
    row: '50 % retryable',
    fault: 'receiver: 502/503/504 without Retry-After on 50 % of requests (seeded)',
    async setup(ctx) {
      // First matching rule wins: 1/6, then 1/5 of the rest, then 1/4 of the rest = 1/2.
      for (const [status, probability] of [
        [502, 1 / 6],
        [503, 1 / 5],
        [504, 1 / 4],
      ] as const) {
        await ctx.control('POST', '/_receiver/faults', {
          probability,
          seed: status,
          action: { status },
        });
      }
    },
  },
  {
    ...base,
    row: 'reset before reply',
    fault: 'receiver: connection dropped before reading the body, 20 %',
    setup: (ctx) =>
      ctx.control('POST', '/_receiver/faults', {
        probability: 0.2,
        seed: 5,
        action: { reset: true },
      }) as Promise<void>,
  },
  {
    ...base,
    row: 'commit then reset',
    fault: 'receiver: batch committed, then connection dropped, 30 %',
    setup: (ctx) =>
      ctx.control('POST', '/_receiver/faults', {
        probability: 0.3,
        seed: 6,
        action: { commitThenReset: true },
      }) as Promise<void>,
  },
  {
    ...base,
    row: 'proxy: reset before reply',
    fault: 'proxy: request swallowed, client reset, 20 %',
    proxyFault: sometimes(0.2, 7, { kind: 'reset-before-reply' }),
  },
  {
    ...base,
    row: 'proxy: commit then reset',
    fault: 'proxy: receiver answers 202, client gets a reset instead, 30 %',
    proxyFault: sometimes(0.3, 8, { kind: 'reset-after-reply' }),
  },
  {
    ...base,
    row: 'latency > timeout',
    fault: 'receiver: 900 ms delay before reading, 10 %; exporter timeoutMillis 500',
    exporter: { timeoutMillis: 500 },
    setup: (ctx) =>
      ctx.control('POST', '/_receiver/faults', {
        probability: 0.1,
        seed: 9,
        action: { delayMillis: 900 },
      }) as Promise<void>,
  },
  {
    ...base,
    row: 'proxy: answer late',
    fault: 'proxy: committed answer held 900 ms, 10 %; exporter timeoutMillis 500',
    exporter: { timeoutMillis: 500 },
    proxyFault: sometimes(0.1, 10, { kind: 'delay-reply', millis: 900 }),
  },
  {
    ...base,
    row: 'proxy: stall mid-body',
    fault: 'proxy: answer head + half its body, then silence, 10 %; timeoutMillis 500',
    exporter: { timeoutMillis: 500 },
    proxyFault: sometimes(0.1, 11, { kind: 'stall-mid-body' }),
  },
  {
    ...base,
    row: 'SIGKILL + restart',
    fault: `receiver SIGKILLed mid-stream${FULL ? ' twice' : ''}, down 500 ms, restarted on its file DB`,
    proxyFault: () => ({ kind: 'pass' }),
    async during(ctx) {
      for (const share of FULL ? [0.3, 0.65] : [0.4]) {
        while (!ctx.done() && ctx.stats().exported < RECORDS * share) await sleep(10);
        if (ctx.done()) return;
        await ctx.killAndRestart(500);
      }
    },
  },
  {
    ...base,
    row: '401 for one resource',
    fault: 'receiver: 401 for every request to 1 of 3 resources',
    setup: (ctx) =>
      ctx.control('POST', '/_receiver/faults', {
        match: { resource: RESOURCES[1] },
        action: { status: 401 },
      }) as Promise<void>,
  },
];

const results: RowResult[] = [];

describe(`fault matrix (${RECORDS} records per row)`, () => {
  afterAll(() => {
    killAllReceivers();
    if (results.length > 0) console.log(`\n${formatTable(results)}\n`);
    const out = process.env.RESLOG_RELIABILITY_OUT;
    if (out) writeFileSync(out, `${JSON.stringify({ records: RECORDS, results }, null, 2)}\n`);
  });

  for (const spec of ROWS) {
    it(
      `${spec.row}: stored = sent − stated drops, no duplicates`,
      async () => {
        const result = await runRow(spec);
        results.push(result);
        const label = JSON.stringify(result);
        expect(result.duplicates, label).toBe(0);
        expect(result.foreign, label).toBe(0);
        expect(result.acknowledged + droppedTotal(result), label).toBe(result.sent);
        expect(result.stored, label).toBe(result.sent - droppedTotal(result));
        if (spec.row !== 'baseline') {
          expect(result.faultsFired + result.restarts, label).toBeGreaterThan(0);
        }
        if (spec.row === '401 for one resource') {
          const rejected = RESOURCES[1];
          expect(result.dropped, label).toEqual({ rejected: result.sentByResource[rejected] });
          expect(result.storedByResource[rejected] ?? 0, label).toBe(0);
          for (const uuid of [RESOURCES[0], RESOURCES[2]]) {
            expect(result.storedByResource[uuid], label).toBe(result.sentByResource[uuid]);
          }
        } else {
          // Nothing here is a reason to lose a record: every fault is retried to success.
          expect(result.dropped, label).toEqual({});
          expect(result.stored, label).toBe(result.sent);
        }
      },
      ROW_TIMEOUT,
    );
  }

  it('no receiver process printed the API key or the admin token', () => {
    const text = printed.join('');
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(ADMIN_TOKEN);
  });
});
