import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogFilter } from '../../src/receiver/store/log-filter.js';
import type { LogQuery, NewLog } from '../../src/receiver/store/log-store.js';
import { CHECKOUT, readLogs, receiver } from './fixtures.js';

/**
 * One resource with a million records, inserted straight through the store in one
 * transaction: every read filter is answered in SQL, through an index, well under a second
 * (docs/receiver.md, "Read: a million records").
 */
const RECORDS = Number(process.env.RESLOG_SCALE_RECORDS ?? 1_000_000);
const LOGGERS = ['checkout.http', 'checkout.db', 'checkout.db.pool', 'billing.worker', 'auth'];
const RARE_TRACE = 'aaaabbbbccccddddeeeeffff00001111';
const START_NS = 1_795_600_000_000_000_000n;

/** Deterministic mix: mostly info and debug, 0.1 % critical, a few rare words and traces. */
function record(i: number): NewLog {
  const roll = i % 1000;
  const levelRank =
    roll === 0 ? 50 : roll < 5 ? 45 : roll < 20 ? 40 : roll < 100 ? 30 : roll < 300 ? 10 : 20;
  return {
    tsNs: START_NS + BigInt(i) * 1_000_000n,
    level:
      levelRank === 50
        ? 'critical'
        : levelRank === 45
          ? 'alert'
          : levelRank === 40
            ? 'error'
            : levelRank === 30
              ? 'warning'
              : levelRank === 10
                ? 'debug'
                : 'info',
    levelRank,
    severityNumber: null,
    message:
      i % 997 === 0
        ? `payment gateway timeout after 30 s (order ${i})`
        : `request ${i} handled in ${i % 50} ms`,
    logger: i % 10 === 9 ? null : (LOGGERS[i % LOGGERS.length] as string),
    attributes: { 'http.route': '/pay', n: i },
    extra: undefined,
    body: undefined,
    traceId:
      i % 200_000 === 7 ? RARE_TRACE : i % 10 === 0 ? i.toString(16).padStart(32, '0') : null,
    spanId: null,
    observedTsNs: null,
    eventName: null,
    recordId: null,
    unknownFields: {},
  };
}

const iso = (ns: bigint) => new Date(Number(ns / 1_000_000n)).toISOString();

let app: FastifyInstance;
let resourceId: number;
const dir = mkdtempSync(join(tmpdir(), 'reslog-scale-'));
let insertSeconds = 0;

beforeAll(async () => {
  app = receiver({ db: join(dir, 'scale.db') });
  await app.ready();
  const { store } = app.receiver;
  resourceId = store.directory.resourceByUuid(CHECKOUT)?.id as number;
  const started = performance.now();
  const envelope = {
    resource: { 'service.name': 'checkout' },
    sdk: 'scale-test',
    sdkVersion: '1',
    receivedAt: '2026-11-23T00:00:00.000Z',
    requestId: 'req_scale',
    actingUser: 'alice',
  };
  store.transaction(() => {
    const batch: NewLog[] = [];
    for (let i = 0; i < RECORDS; i++) {
      batch.push(record(i));
      if (batch.length === 10_000) {
        store.logs.insert(resourceId, batch, envelope);
        batch.length = 0;
      }
    }
    store.logs.insert(resourceId, batch, envelope);
  });
  insertSeconds = (performance.now() - started) / 1000;
  console.log(`inserted ${RECORDS} records in ${insertSeconds.toFixed(1)} s`);
}, 180_000);

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const CASES: [string, string, Partial<LogQuery>][] = [
  ['no filter', '', {}],
  ['level=critical', '?level=critical', { minRank: 50 }],
  ['level=level 60 (matches nothing)', '?level=60', { minRank: 60 }],
  ['logger=auth', '?logger=auth', { logger: { name: 'auth', descendants: false } }],
  [
    'logger=checkout.db.*',
    '?logger=checkout.db.*',
    { logger: { name: 'checkout.db', descendants: true } },
  ],
  [
    'logger=nobody (matches nothing)',
    '?logger=nobody',
    { logger: { name: 'nobody', descendants: false } },
  ],
  ['q=timeout', '?q=timeout', { q: 'timeout' }],
  ['trace_id', `?trace_id=${RARE_TRACE}`, { traceId: RARE_TRACE }],
  ['q=nothing-has-this', '?q=nothing-has-this', { q: 'nothing-has-this' }],
  [
    'since/until (one minute)',
    `?since=${iso(START_NS + 60_000_000_000n)}&until=${iso(START_NS + 120_000_000_000n)}`,
    { sinceNs: START_NS + 60_000_000_000n, untilNs: START_NS + 120_000_000_000n },
  ],
  ['level=error&q=timeout', '?level=error&q=timeout', { minRank: 40, q: 'timeout' }],
  [
    'level=error&logger=checkout.http',
    '?level=error&logger=checkout.http',
    { minRank: 40, logger: { name: 'checkout.http', descendants: false } },
  ],
];

describe(`a resource with ${RECORDS} records`, () => {
  it.each(CASES)(
    '%s: newest-first page through an index, well under a second',
    async (_name, query, logQuery) => {
      const plan = app.receiver.store.logs.plan(resourceId, {
        limit: 100,
        order: 'desc',
        ...logQuery,
      });
      const started = performance.now();
      const response = await readLogs(app, `${query}${query ? '&' : '?'}limit=100`);
      const millis = performance.now() - started;
      console.log(`${_name}: ${millis.toFixed(1)} ms, ${response.json().logs.length} logs`);
      expect(response.statusCode).toBe(200);
      expect(plan.some((line) => /USING (COVERING )?INDEX logs_/.test(line))).toBe(true);
      expect(millis).toBeLessThan(1000);
    },
  );
});

describe(`follow on a resource with ${RECORDS} records`, () => {
  const follow = (filter: LogFilter, afterId: number) =>
    app.receiver.store.logs.follow(resourceId, filter, afterId, 200);

  it.each([
    ['tail=1000', {}],
    ['tail=1000&level=critical', { minRank: 50 }],
    ['tail=1000&level=60 (matches nothing)', { minRank: 60 }],
  ] as const)('%s: the newest records by time, well under a second', (name, filter) => {
    const started = performance.now();
    const page = app.receiver.store.logs.query(resourceId, {
      ...filter,
      limit: 1000,
      order: 'desc',
    });
    const millis = performance.now() - started;
    console.log(`follow ${name}: ${millis.toFixed(1)} ms, ${page.logs.length} logs`);
    expect(millis).toBeLessThan(1000);
  });

  it.each([
    ['after_id=0', {}],
    ['after_id=0&logger=auth', { logger: { name: 'auth', descendants: false } }],
    ['after_id=0&level=60 (matches nothing)', { minRank: 60 }],
  ] as const)(
    'catch-up %s: each read is short, and the reads cover every id once',
    (name, filter) => {
      let slowest = 0;
      let reads = 0;
      let sent = 0;
      let afterId = 0;
      const started = performance.now();
      // The first 100 000 ids: enough to see that reads stay short and advance.
      while (afterId < 100_000) {
        const begun = performance.now();
        const read = follow(filter, afterId);
        slowest = Math.max(slowest, performance.now() - begun);
        expect(read.scannedTo).toBeGreaterThan(afterId);
        afterId = read.scannedTo;
        sent += read.logs.length;
        reads++;
      }
      console.log(
        `follow catch-up ${name}: ${reads} reads, slowest ${slowest.toFixed(1)} ms, ` +
          `${(performance.now() - started).toFixed(0)} ms for ${afterId} ids, ${sent} logs`,
      );
      expect(slowest).toBeLessThan(250);
    },
  );
});
