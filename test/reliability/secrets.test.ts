import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ExportableLogRecord } from '../../src/exporter/otel-types.js';
import { type DropEvent, ResourceLogExporter } from '../../src/index.js';
import { buildReceiver } from '../../src/receiver/index.js';
import { printed, startReceiverProcess } from '../harness/receiver-process.ts';
import { startTcpProxy } from '../harness/tcp-proxy.ts';

/**
 * Secrets never leave: every API key used (valid, wrong, revoked-looking) and the admin token
 * are absent from everything the system printed or answered while it ran through successes and
 * failures: pino logs at trace level, the CLI's stdout/stderr, the request journal, metrics,
 * error bodies, the exporter's diag output, errors, drop events and stats. Keys are stored
 * only as SHA-256 digests (checked in the raw database files) and compared in constant time.
 */
const KEY = 'sec-live-key-6b0c2e9f41d7a385';
const VIEWER_KEY = 'sec-viewer-key-93fd01ac7e2b5d64';
const WRONG_KEY = 'sec-wrong-key-1f8e3a7c90b24d56';
const ADMIN = 'sec-admin-token-c4e1b7a09d3f';
const SECRETS = [KEY, VIEWER_KEY, WRONG_KEY, ADMIN];
const UUID = '66666666-6666-4666-8666-666666666666';
const SEED = {
  accounts: [
    { username: 'sam', api_keys: [KEY] },
    { username: 'vic', api_keys: [VIEWER_KEY] },
  ],
  resources: [
    {
      owner: 'sam',
      uuid: UUID,
      key: 'sec',
      collaborators: [{ username: 'vic', role: 'viewer' }],
    },
  ],
};

const dir = mkdtempSync(join(tmpdir(), 'reslog-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function record(i: number): ExportableLogRecord {
  return {
    hrTime: [1_795_234_527, i],
    hrTimeObserved: [1_795_234_527, i],
    severityNumber: 17,
    body: `secret-test ${i}`,
    resource: { attributes: { 'service.name': 'sec' } },
    instrumentationScope: { name: 'sec' },
    attributes: { i },
  };
}
const exportOnce = (exporter: ResourceLogExporter, records: ExportableLogRecord[]) =>
  new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(records, resolve));

function expectNoSecret(text: string, where: string) {
  for (const secret of SECRETS)
    expect(text.includes(secret), `${where} contains a secret`).toBe(false);
}

describe('secrets', () => {
  it('in process: nothing the receiver logged or answered, nor the exporter reported, holds a key', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = buildReceiver({
      seed: SEED,
      adminToken: ADMIN,
      logger: { level: 'trace', stream: sink },
      limits: { rateLimitPerSecond: 1, rateLimitBurst: 8, maxBodyBytes: 4096 },
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const diagLines: string[] = [];
    const at = (message: string, ...args: unknown[]) =>
      diagLines.push(
        [message, ...args.map((a) => (a instanceof Error ? `${a.stack}` : String(a)))].join(' '),
      );
    const logger: DiagLogger = { error: at, warn: at, info: at, debug: at, verbose: at };
    diag.setLogger(logger, { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true });
    const consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((name) =>
      vi.spyOn(console, name),
    );
    const answers: string[] = [];
    const drops: DropEvent[] = [];
    const results: { code: number; error?: Error }[] = [];
    try {
      const call = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(`${url}${path}`, init);
        answers.push(JSON.stringify([...response.headers]), await response.text());
        return response.status;
      };
      const ingest = `/u/sam/resources/${UUID}/logs/`;
      const json = { 'content-type': 'application/json' };
      // Every answer the data plane gives: 202, 401 (wrong, missing, mismatched), 403, 404,
      // 400, 413, 415, 422, 429; the journal and metrics afterwards.
      await call(ingest, { method: 'POST', headers: { ...json, 'x-api-key': KEY }, body: '{}' });
      await call(ingest, {
        method: 'POST',
        headers: { ...json, 'x-api-key': WRONG_KEY },
        body: '{}',
      });
      await call(ingest, { method: 'POST', headers: json, body: '{}' });
      await call(ingest, {
        method: 'POST',
        headers: { ...json, 'x-api-key': KEY, 'x-user-username': 'vic' },
        body: '{}',
      });
      await call(ingest, {
        method: 'POST',
        headers: { ...json, 'x-api-key': VIEWER_KEY },
        body: '{}',
      });
      await call(`/u/vic/resources/${UUID}/logs/`, { headers: { 'x-api-key': KEY } });
      await call(ingest, { method: 'POST', headers: { ...json, 'x-api-key': KEY }, body: '{' });
      await call(ingest, {
        method: 'POST',
        headers: { ...json, 'x-api-key': KEY },
        body: JSON.stringify({ message: KEY.repeat(400) }),
      });
      await call(ingest, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'text/plain' },
        body: KEY,
      });
      for (const body of ['{"message":"a"}', '{"message":"b"}']) {
        await call(ingest, {
          method: 'POST',
          headers: { ...json, 'x-api-key': KEY, 'idempotency-key': 'same' },
          body,
        });
      }
      for (let i = 0; i < 4; i++) {
        await call(ingest, { method: 'POST', headers: { ...json, 'x-api-key': KEY }, body: '{}' });
      }
      await call('/_receiver/faults', { headers: { authorization: `Bearer ${WRONG_KEY}` } });
      await call('/_receiver/requests?limit=1000', {
        headers: { authorization: `Bearer ${ADMIN}` },
      });
      await call('/metrics');
      await call('/api/me', { headers: { 'x-api-key': WRONG_KEY } });

      // The exporter through failures: 401 with the wrong key, 429 from the limiter, a reset,
      // a refused connection.
      await app.inject({
        method: 'POST',
        url: '/_receiver/faults',
        headers: { authorization: `Bearer ${ADMIN}` },
        payload: { count: 1, action: { reset: true } },
      });
      for (const apiKey of [KEY, WRONG_KEY]) {
        const exporter = new ResourceLogExporter({
          baseUrl: url,
          apiKey,
          username: 'sam',
          resource: UUID,
          maxBacklogAgeMillis: 1500,
          onDrop: (event) => drops.push(event),
        });
        for (let i = 0; i < 3; i++) results.push(await exportOnce(exporter, [record(i)]));
        answers.push(JSON.stringify(exporter.getStats()));
        await exporter.shutdown();
      }
      const proxy = await startTcpProxy({ decide: () => ({ kind: 'pass' }) });
      const refused = new ResourceLogExporter({
        baseUrl: proxy.url,
        apiKey: KEY,
        username: 'sam',
        resource: UUID,
        maxBacklogAgeMillis: 800,
        onDrop: (event) => drops.push(event),
      });
      results.push(await exportOnce(refused, [record(9)]));
      await refused.shutdown();
      await proxy.close();
    } finally {
      diag.disable();
      await app.close();
    }
    const reported = [
      ...results.map(
        (r) =>
          `${r.error?.stack} ${JSON.stringify(r.error)} ${JSON.stringify((r.error as { causes?: unknown })?.causes)}`,
      ),
      ...drops.map((d) => `${d.error?.stack} ${JSON.stringify(d)}`),
    ];
    expect(lines.length).toBeGreaterThan(20);
    expect(diagLines.length).toBeGreaterThan(0);
    expect(drops.length).toBeGreaterThan(0);
    expectNoSecret(lines.join(''), 'pino log');
    expectNoSecret(answers.join('\n'), 'an answer, the journal or metrics');
    expectNoSecret(diagLines.join('\n'), 'diag output');
    expectNoSecret(reported.join('\n'), 'an export error or drop event');
    for (const spy of consoleSpies) expectNoSecret(JSON.stringify(spy.mock.calls), 'console');
  });

  it('CLI with a file database: keys only as SHA-256 digests on disk, nothing printed', async () => {
    const seedFile = join(dir, 'seed.json');
    const db = join(dir, 'receiver.db');
    writeFileSync(seedFile, JSON.stringify(SEED));
    const before = printed.length;
    const receiver = await startReceiverProcess(
      ['--db', db, '--seed', seedFile, '--log-level', 'trace'],
      { adminToken: ADMIN },
    );
    try {
      for (const key of [KEY, WRONG_KEY, VIEWER_KEY]) {
        await fetch(`${receiver.url}/u/sam/resources/${UUID}/logs/`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: '{"message":"cli"}',
        });
      }
      await fetch(`${receiver.url}/_receiver/requests`, {
        headers: { authorization: `Bearer ${WRONG_KEY}` },
      });
    } finally {
      await receiver.stop();
    }
    const output = printed.slice(before).join('');
    expect(output).toContain('reslog-receiver listening on');
    expectNoSecret(output, 'CLI output');

    const files = readdirSync(dir).filter((f) => f.startsWith('receiver.db'));
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(dir, f))));
    for (const secret of SECRETS) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    // What is there instead: the SHA-256 digest of each seeded key.
    for (const key of [KEY, VIEWER_KEY]) {
      expect(bytes.includes(createHash('sha256').update(key).digest())).toBe(true);
    }
  });

  it('key checks take the same time whether a wrong key shares a long prefix with a real one or none', async () => {
    const app = buildReceiver({
      seed: SEED,
      limits: { rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000 },
    });
    await app.ready();
    const time = async (key: string) => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < 300; i++) {
        await app.inject({ url: '/api/me', headers: { 'x-api-key': key } });
      }
      return Number(process.hrtime.bigint() - started);
    };
    // Keys are looked up by their SHA-256 digest and the digests compared with
    // crypto.timingSafeEqual, so no prefix of a real key is faster to reject.
    const prefix = `${KEY.slice(0, -1)}x`;
    const unrelated = 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz';
    await time(prefix);
    const samples = { prefix: [] as number[], unrelated: [] as number[] };
    for (let round = 0; round < 5; round++) {
      samples.prefix.push(await time(prefix));
      samples.unrelated.push(await time(unrelated));
    }
    await app.close();
    const median = (xs: number[]) =>
      [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const ratio = median(samples.prefix) / median(samples.unrelated);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});
