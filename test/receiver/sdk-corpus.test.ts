import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../src/receiver/ingest/timestamps.js';
import { CHECKOUT, ingestPath, KEYS, post, readLogs, receiver } from './fixtures.js';

/**
 * Requests shaped exactly as the service's own SDKs send them (one record per POST, never
 * retried, the answer ignored: whatever the receiver refuses is lost). The Python bodies are
 * made by the real stdlib (test/fixtures/sdk-corpus/generate.py, output committed); the Node
 * ones are what `JSON.stringify` and `Date#toISOString` make. Every record must be stored and
 * read back as sent (docs/receiver.md, "Lossless read-back").
 */
interface Corpus {
  traceback: string;
  level_names: Record<string, string>;
  cases: { name: string; body: string }[];
}
const PYTHON = JSON.parse(
  readFileSync(new URL('../fixtures/sdk-corpus/python-sdk.json', import.meta.url), 'utf8'),
) as Corpus;

const caseNamed = (prefix: string) => {
  const found = PYTHON.cases.find((c) => c.name.startsWith(prefix));
  if (!found) throw new Error(`no corpus case "${prefix}"`);
  return found.body;
};
const MULTI = caseNamed('multi-record body');
const INFINITY = caseNamed('Infinity is not JSON');
/** The one-record requests of the Python SDK. */
const PYTHON_SINGLE = PYTHON.cases.map((c) => c.body).filter((b) => b !== MULTI && b !== INFINITY);

/** A number's text, so that numbers compare as written, not as doubles. */
class NumberText {
  constructor(readonly text: string) {}
}

/** JSON.parse keeping every number's text; strings keep lone surrogates (JS strings can). */
function parseExact(text: string): unknown {
  const parse = JSON.parse as (
    text: string,
    reviver: (key: string, value: unknown, context: { source?: string }) => unknown,
  ) => unknown;
  return parse(text, (_key, value, context) =>
    typeof value === 'number' ? new NumberText(context.source as string) : value,
  );
}

interface SentRecord {
  level: string;
  message: string;
  logger: string;
  ts: string;
  extra: unknown;
}
interface SentBody {
  sdk: string;
  sdk_version: string;
  logs: SentRecord[];
}

/** What the Node SDK sends for one record. */
function nodeBody(i: number): string {
  const levels = ['debug', 'info', 'warning', 'error', 'alert', 'critical'];
  return JSON.stringify({
    resource_id: CHECKOUT,
    sdk: 'node',
    sdk_version: '2.3.1',
    logs: [
      {
        level: levels[i % levels.length],
        message: `node burst ${i}`,
        logger: 'checkout.worker',
        ts: new Date(Date.UTC(2026, 10, 22, 13, 54, 18, i % 1000) + i * 1000).toISOString(),
        extra: {
          logger: 'checkout.worker',
          module: 'worker',
          function: 'handle',
          line: 100 + i,
          path: '/srv/worker/handle.js',
          extra: { job: i, tags: ['a', 'b'], nested: { ok: true } },
          stack_info: null,
          exception:
            i % 7 === 0
              ? `Error: job ${i} failed\n    at handle (/srv/worker/handle.js:1:1)`
              : null,
        },
      },
    ],
  });
}

/** Every log of the resource, paged through (newest-first pages of 1000). */
async function readAll(app: FastifyInstance): Promise<{ text: string; logs: unknown[] }[]> {
  const pages = [];
  let cursor: string | null = null;
  do {
    const response = await readLogs(
      app,
      `?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(response.statusCode).toBe(200);
    const page = parseExact(response.body) as { logs: unknown[]; next_cursor: string | null };
    pages.push({ text: response.body, logs: page.logs });
    cursor = page.next_cursor;
  } while (cursor !== null);
  return pages;
}

/** Field by field: the stored log says what the SDK sent (numbers compared as text). */
function expectStoredAsSent(stored: Record<string, unknown>, body: SentBody, sent: SentRecord) {
  const label = sent.message.slice(0, 60);
  expect(stored.message, label).toBe(sent.message);
  expect(stored.level, label).toBe(sent.level);
  expect(stored.logger, label).toBe(sent.logger);
  // The same instant, answered as UTC with 9 digits.
  expect(parseTimestamp(stored.ts as string), label).toBe(parseTimestamp(sent.ts));
  expect(stored.extra, label).toEqual(sent.extra);
  expect(stored.sdk, label).toBe(body.sdk);
  expect(stored.sdk_version, label).toBe(body.sdk_version);
  expect(stored.attributes, label).toEqual({});
  expect(stored.unknown_fields, label).toEqual({});
}

describe('what the service SDKs send is stored, unchanged', () => {
  let app: FastifyInstance | undefined;
  let agent: Agent | undefined;
  afterEach(async () => {
    await agent?.close();
    await app?.close();
    agent = undefined;
    app = undefined;
  });

  it('the corpus was made by the stdlib: level names, traceback, timestamps', () => {
    expect(PYTHON.level_names).toEqual({
      '0': 'notset',
      '10': 'debug',
      '20': 'info',
      '22': 'success',
      '25': 'level 25',
      '30': 'warning',
      '35': 'notice',
      '40': 'error',
      '45': 'alert',
      '50': 'critical',
    });
    expect(PYTHON.traceback).toMatch(
      /^Traceback \(most recent call last\):\n {2}File "\/srv\/app\/checkout.py", line \d+, in pay\n/,
    );
    const stamps = PYTHON_SINGLE.map((b) => (JSON.parse(b) as SentBody).logs[0]?.ts);
    expect(stamps).toContain('2026-11-22T13:54:18.371245+00:00');
    expect(stamps).toContain('2026-11-22T13:54:18+00:00');
  });

  it('a burst of 1 000 concurrent one-record requests over a socket: every one 202, stored once, read back as sent', async () => {
    app = receiver(); // default options
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    agent = new Agent({ connections: 1000 });
    const bodies = [...PYTHON_SINGLE];
    for (let i = 0; bodies.length < 1000; i++) bodies.push(nodeBody(i));

    // Unawaited, all at once, as an application logging in a loop does.
    const answers = await Promise.all(
      bodies.map(async (body) => {
        const response = await request(`${base}${ingestPath()}`, {
          method: 'POST',
          dispatcher: agent,
          headers: {
            'content-type': 'application/json',
            'x-api-key': KEYS.alice,
            'x-user-username': 'alice',
          },
          body,
        });
        return { status: response.statusCode, json: (await response.body.json()) as object };
      }),
    );
    const refused = answers.filter((a) => a.status !== 202);
    expect(refused).toEqual([]);
    for (const answer of answers) expect(answer.json).toMatchObject({ accepted: 1, rejected: 0 });

    const stored = (await readAll(app)).flatMap((page) => page.logs) as Record<string, unknown>[];
    expect(stored).toHaveLength(1000);
    const byMessage = new Map<string, Record<string, unknown>[]>();
    for (const log of stored) {
      const message = log.message as string;
      byMessage.set(message, [...(byMessage.get(message) ?? []), log]);
    }
    for (const text of bodies) {
      const body = parseExact(text) as SentBody;
      const sent = body.logs[0] as SentRecord;
      const matches = byMessage.get(sent.message) ?? [];
      expect(matches, sent.message.slice(0, 60)).toHaveLength(1);
      expectStoredAsSent(matches[0] as Record<string, unknown>, body, sent);
    }
  });

  it('keeps what JSON can say and a double or UTF-8 cannot: lone surrogates, NUL, 2^70, -2^64, -0.0', async () => {
    app = receiver();
    const text = caseNamed('odd values');
    expect(text).toContain('\\ud800');
    expect(text).toContain('1180591620717411303424');
    expect((await post(app, text)).json()).toMatchObject({ accepted: 1 });
    const response = await readLogs(app);
    const [log] = (parseExact(response.body) as { logs: Record<string, unknown>[] }).logs;
    const sent = (parseExact(text) as SentBody).logs[0] as SentRecord;
    expect(log?.message).toBe('odd values nul \u0000 ls \u2028 emoji \u{1F600} lone \ud800 \udfff');
    expect(log?.message).toBe(sent.message);
    expect(log?.extra).toEqual(sent.extra);
    // The numbers come back as the text Python wrote, not as doubles.
    const extra = (log as { extra: { extra: Record<string, unknown> } }).extra.extra;
    expect(extra.big).toEqual(new NumberText('1180591620717411303424'));
    expect(extra.negative).toEqual(new NumberText('-18446744073709551616'));
    expect(extra.zero).toEqual(new NumberText('-0.0'));
    expect(extra.lone).toBe('\ud800');
    expect(extra.lone_low).toBe('x\udc00y');
    expect(response.body).toContain('"big":1180591620717411303424');
    expect(response.body).toContain('"lone":"\\ud800"');
  });

  it('stores a number too large for a double exactly as written (1e400)', async () => {
    // Hand-written JSON only: Python's json.dumps writes float("inf") as Infinity (below),
    // and JSON.stringify(Infinity) is null.
    app = receiver();
    const body = `{"logs":[{"level":"info","message":"huge","extra":{"value":1e400,"tiny":-1e-400}}]}`;
    expect((await post(app, body)).json()).toMatchObject({ accepted: 1 });
    const response = await readLogs(app);
    expect(response.body).toContain('"extra":{"value":1e400,"tiny":-1e-400}');
  });

  it('answers 400 invalid_body for Python’s Infinity, which is not JSON, and stores nothing', async () => {
    app = receiver();
    expect(INFINITY).toContain('Infinity');
    const response = await post(app, INFINITY);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect((await readLogs(app)).json().logs).toEqual([]);
  });

  it('rejects only the record nested too deep (depth 301), storing its neighbours', async () => {
    app = receiver();
    const response = await post(app, MULTI);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({
      accepted: 2,
      rejected: 1,
      errors: [{ index: 1, code: 'nesting_too_deep' }],
    });
    const messages = (await readLogs(app)).json().logs.map((l: { message: string }) => l.message);
    expect(messages.sort()).toEqual(['after the deep one', 'before the deep one']);
  });

  it('stores 70 KB messages, 70 KB extra, depth-200 extra, tracebacks and code locations', async () => {
    app = receiver();
    for (const prefix of ['mmmm', 'big extra', 'deep extra', 'payment failed', 'where am I']) {
      expect((await post(app, caseNamed(prefix))).json(), prefix).toMatchObject({ accepted: 1 });
    }
    const logs = (await readLogs(app)).json().logs as Record<string, any>[];
    const stored = ['mmmm', 'big extra', 'deep extra', 'payment failed', 'where am I'].map(
      (start) => logs.find((l) => l.message.startsWith(start)),
    );
    expect(stored.map((l) => l?.message.length)).toEqual([70_000, 9, 10, 27, 10]);
    expect(stored[1]?.extra.extra.blob).toHaveLength(70_000);
    let depth = 0;
    for (let node = stored[2]?.extra.extra; typeof node === 'object'; node = node.deep ?? node.d)
      depth++;
    expect(depth).toBe(200);
    expect(stored[3]?.extra).toMatchObject({
      module: 'checkout',
      function: 'pay',
      path: '/srv/app/checkout.py',
      line: expect.any(Number),
      exception: PYTHON.traceback,
      extra: { order_id: 42 },
    });
    expect(stored[3]?.extra.exception.split('\n').length).toBeGreaterThan(4);
    expect(stored[4]?.extra.stack_info).toMatch(/^Stack \(most recent call last\):/);
  });

  it('level filters rank alert between error and critical', async () => {
    app = receiver();
    for (const body of PYTHON_SINGLE) expect((await post(app, body)).statusCode).toBe(202);
    const levels = async (query: string) =>
      [
        ...new Set(
          (await readLogs(app as FastifyInstance, `?limit=1000&order=asc${query}`))
            .json()
            .logs.map((l: { level: string }) => l.level),
        ),
      ].sort();
    expect(await levels('')).toEqual([
      'alert',
      'critical',
      'debug',
      'error',
      'info',
      'level 25',
      'notice',
      'notset',
      'success',
      'warning',
    ]);
    expect(await levels('&level=error')).toEqual(['alert', 'critical', 'error']);
    expect(await levels('&level=alert')).toEqual(['alert', 'critical']);
    expect(await levels('&level=warning')).toEqual(['alert', 'critical', 'error', 'warning']);
    expect(await levels('&level=info')).not.toContain('notset');
    expect(await levels('&level=info')).toContain('level 25');
  });
});
