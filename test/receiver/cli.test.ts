import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, CHECKOUT, KEYS } from './fixtures.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'src/receiver/dist/receiver/cli.js');
const node = join(root, 'node_modules/.bin/node');
const seed = join(root, 'examples/seed.json');
const dir = mkdtempSync(join(tmpdir(), 'reslog-receiver-'));

interface Running {
  child: ChildProcess;
  url: string;
  exit: Promise<number | null>;
  /** What it printed on stderr so far. */
  stderr(): string;
}

const children: ChildProcess[] = [];

/** Starts the built CLI and resolves with its URL once it prints the ready line. */
async function start(args: string[], env: Record<string, string> = {}): Promise<Running> {
  if (!existsSync(cli))
    throw new Error(`${cli} is missing: run \`npm run build\` before the tests`);
  const child = spawn(node, [cli, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const stdout: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      stdout.push(line);
      const match = /^reslog-receiver listening on (http:\/\/\S+)$/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    exit.then((code) => reject(new Error(`receiver exited with ${code}: ${stderr}`)));
  });
  expect(stdout).toHaveLength(1);
  return { child, url, exit, stderr: () => stderr };
}

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('reslog-receiver CLI', () => {
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints one ready line, drains in-flight requests on SIGTERM and keeps data across restarts', async () => {
    const db = join(dir, 'receiver.db');
    const first = await start(
      ['--port', '0', '--db', db, '--seed', seed, '--log-level', 'silent'],
      {
        RESLOG_ADMIN_TOKEN: ADMIN_TOKEN,
      },
    );
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ingestUrl = `${first.url}/u/alice/resources/${CHECKOUT}/logs/`;
    const headers = { 'x-api-key': KEYS.alice, 'content-type': 'application/json' };
    const ok = await fetch(ingestUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: 'before restart' }),
    });
    expect(ok.status).toBe(202);

    await fetch(`${first.url}/_receiver/faults`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1, action: { delayMillis: 400 } }),
    });
    const inFlight = fetch(ingestUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: 'in flight' }),
    });
    await expect
      .poll(async () => {
        const response = await fetch(`${first.url}/_receiver/faults`, { headers: admin });
        return ((await response.json()) as { faults: { fired: number }[] }).faults[0]?.fired;
      })
      .toBe(1);
    first.child.kill('SIGTERM');
    expect((await inFlight).status).toBe(202);
    expect(await first.exit).toBe(0);

    // Same --db, seed applied again: nothing duplicated, everything still there.
    const second = await start(['--db', db, '--seed', seed, '--log-level', 'silent'], {
      RESLOG_RECEIVER_PORT: '0',
    });
    const read = await fetch(`${second.url}/u/alice/resources/${CHECKOUT}/logs/?order=asc`, {
      headers: { 'x-api-key': KEYS.alice },
    });
    const { logs } = (await read.json()) as { logs: { message: string }[] };
    expect(logs.map((l: { message: string }) => l.message)).toEqual([
      'before restart',
      'in flight',
    ]);
    second.child.kill('SIGINT');
    expect(await second.exit).toBe(0);
  });

  it('serves the data plane and /api under --path-prefix or RESLOG_PATH_PREFIX, the control plane at the root', async () => {
    for (const [args, env] of [
      [['--path-prefix', '/DevTools'], {}],
      [[], { RESLOG_PATH_PREFIX: '/DevTools/' }],
    ] as const) {
      const { url, child, exit } = await start(
        ['--port', '0', '--seed', seed, '--log-level', 'silent', ...args],
        { RESLOG_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
      );
      const ingest = (prefix: string) =>
        fetch(`${url}${prefix}/u/alice/resources/${CHECKOUT}/logs/`, {
          method: 'POST',
          headers: { 'x-api-key': KEYS.bob, 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'prefixed' }),
        });
      expect((await ingest('/DevTools')).status).toBe(202);
      expect((await ingest('')).status).toBe(404);
      const me = await fetch(`${url}/DevTools/api/me`, { headers: { 'x-api-key': KEYS.bob } });
      expect(((await me.json()) as { username: string }).username).toBe('bob');
      const wait = await fetch(`${url}/_receiver/logs/wait?resource=${CHECKOUT}&min=1`, {
        headers: admin,
      });
      expect(((await wait.json()) as { count: number }).count).toBe(1);
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    }
    const bad = spawn(node, [cli, '--port', '0', '--path-prefix', 'DevTools'], { cwd: root });
    children.push(bad);
    let stderr = '';
    bad.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    expect(await new Promise((resolve) => bad.once('exit', resolve))).toBe(1);
    expect(stderr).toMatch(/--path-prefix \(RESLOG_PATH_PREFIX\)" must be a path/);
  });

  it('prints the web console URL and serves it; --no-console or RESLOG_RECEIVER_CONSOLE=false turn it off', async () => {
    const on = await start(['--port', '0', '--log-level', 'silent']);
    await expect.poll(() => on.stderr()).toContain(`reslog-receiver web console: ${on.url}/`);
    const page = await fetch(`${on.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const [args, env] of [
      [['--no-console'], {}],
      [[], { RESLOG_RECEIVER_CONSOLE: 'false' }],
    ] as const) {
      const off = await start(['--port', '0', '--log-level', 'silent', ...args], env);
      expect((await fetch(`${off.url}/`)).status).toBe(404);
      expect(off.stderr()).not.toContain('web console');
      off.child.kill('SIGTERM');
      await off.exit;
    }
  });

  it('exits non-zero naming the bad entry of an invalid seed', async () => {
    const child = spawn(node, [cli, '--port', '0', '--seed', join(root, 'package.json')], {
      cwd: root,
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/package\.json: invalid seed: name: unknown field/);
  });

  it('has no per-key rate limit by default; --rate-limit or its env var turns it on', async () => {
    const burst = async (url: string) => {
      const statuses = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const response = await fetch(`${url}/u/alice/resources/${CHECKOUT}/logs/`, {
            method: 'POST',
            headers: { 'x-api-key': KEYS.alice, 'content-type': 'application/json' },
            body: JSON.stringify({ message: `burst ${i}` }),
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      return statuses.sort();
    };
    const plain = await start(['--port', '0', '--seed', seed, '--log-level', 'silent']);
    expect(await burst(plain.url)).toEqual(new Array(30).fill(202));
    plain.child.kill('SIGTERM');
    for (const [args, env] of [
      [['--rate-limit', '1', '--rate-burst', '5'], {}],
      [[], { RESLOG_RECEIVER_RATE_LIMIT: '1', RESLOG_RECEIVER_RATE_BURST: '5' }],
    ] as const) {
      const limited = await start(
        ['--port', '0', '--seed', seed, '--log-level', 'silent', ...args],
        env,
      );
      const statuses = await burst(limited.url);
      expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(5);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
      limited.child.kill('SIGTERM');
    }
  });

  it('cuts off a client that sends its headers too slowly, with the timeout from the flag or env', async () => {
    for (const [args, env] of [
      [['--headers-timeout-millis', '400'], {}],
      [[], { RESLOG_RECEIVER_HEADERS_TIMEOUT_MILLIS: '400' }],
    ] as const) {
      const { url, child } = await start(['--port', '0', '--log-level', 'silent', ...args], env);
      const { hostname, port } = new URL(url);
      const started = Date.now();
      const closed = await new Promise<number>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          // A slowloris client: a request line and never the end of the headers.
          socket.write('POST /u/alice/resources/x/logs/ HTTP/1.1\r\nHost: x\r\n');
        });
        socket.on('error', () => undefined);
        socket.resume(); // read the 408, so that 'close' can follow the server's end
        socket.on('close', () => resolve(Date.now() - started));
      });
      // Well before the 10 s default; the receiver checks timeouts at least every second.
      expect(closed).toBeLessThan(3_000);
      child.kill('SIGTERM');
    }
  });
});
