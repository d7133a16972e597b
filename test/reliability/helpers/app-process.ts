import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ExporterStats } from '../../../src/index.js';
import { processGroup } from '../../harness/child-process.ts';
import { NODE, ROOT } from '../../harness/paths.ts';
import type { AppConfig } from './spooled-app.ts';

const APP = join(ROOT, 'test/reliability/helpers/spooled-app.ts');

const apps = processGroup();

/** SIGKILLs every app still running (afterAll, and on exit of the test process). */
export function killAllApps(): void {
  apps.killAll();
}

/** What the app process told so far (test/reliability/helpers/spooled-app.ts). */
export interface AppProcess {
  readonly started: ReadonlySet<number>;
  readonly acked: ReadonlySet<number>;
  readonly failed: ReadonlySet<number>;
  readonly diag: readonly string[];
  readonly crashes: readonly string[];
  /** Every line it printed, and its stderr, for failure messages. */
  output(): string;
  /** Resolves once `predicate` holds after a line, rejects after `timeoutMillis` or at exit. */
  until(what: string, predicate: () => boolean, timeoutMillis?: number): Promise<void>;
  /** Its stats now (asks for them on stdin). */
  stats(): Promise<ExporterStats>;
  /** Flush, shutdown, exit 0: resolves with the final stats. */
  finish(timeoutMillis?: number): Promise<ExporterStats>;
  /** SIGKILL, resolves once it exited. */
  kill(): Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the app process with `config`. With `fileSizeBlocks`, through
 * `bash -c 'ulimit -f N; exec node …'`: every file it writes is limited to N KiB (RLIMIT_FSIZE;
 * Node ignores SIGXFSZ, so a write past it fails with EFBIG instead of killing the process).
 */
export async function startApp(
  config: AppConfig,
  options: { fileSizeBlocks?: number } = {},
): Promise<AppProcess> {
  const env = { ...process.env, RESLOG_APP_CONFIG: JSON.stringify(config) };
  const stdio: ['pipe', 'pipe', 'pipe'] = ['pipe', 'pipe', 'pipe'];
  const child =
    options.fileSizeBlocks === undefined
      ? spawn(NODE, [APP], { cwd: ROOT, env, stdio })
      : spawn('bash', ['-c', `ulimit -f ${options.fileSizeBlocks} && exec "$0" "$1"`, NODE, APP], {
          cwd: ROOT,
          env,
          stdio,
        });
  apps.add(child);
  const started = new Set<number>();
  const acked = new Set<number>();
  const failed = new Set<number>();
  const diag: string[] = [];
  const crashes: string[] = [];
  const lines: string[] = [];
  const stderr: string[] = [];
  let exitedAt: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const waiters = new Set<() => void>();
  const statsWaiters: ((stats: ExporterStats) => void)[] = [];
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      exitedAt = { code, signal };
      resolve(exitedAt);
      wake();
    }),
  );
  child.stdin?.on('error', () => undefined);
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => stderr.push(text));
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const closed = new Promise<void>((resolve) => reader.once('close', resolve));
  reader.on('line', (line) => {
    lines.push(line);
    const space = line.indexOf(' ');
    const kind = space < 0 ? line : line.slice(0, space);
    const rest = space < 0 ? '' : line.slice(space + 1);
    if (kind === 'start') started.add(Number(rest));
    else if (kind === 'ack') acked.add(Number(rest));
    else if (kind === 'failed') failed.add(Number(rest));
    else if (kind === 'diag') diag.push(rest);
    else if (kind === 'crash') crashes.push(rest);
    else if (kind === 'stats') statsWaiters.shift()?.(JSON.parse(rest) as ExporterStats);
    wake();
  });
  const output = () =>
    `${lines.filter((l) => !/^(start|ack) /.test(l)).join('\n')}\n${stderr.join('')}`;
  const until = (what: string, predicate: () => boolean, timeoutMillis = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (predicate()) done(resolve);
        else if (exitedAt) done(() => reject(new Error(`app exited before ${what}: ${output()}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`no ${what} in ${timeoutMillis} ms: ${output()}`))),
        timeoutMillis,
      );
      const done = (then: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        then();
      };
      waiters.add(check);
      check();
    });
  await until('ready line', () => lines.includes('ready'), 20_000);
  return {
    started,
    acked,
    failed,
    diag,
    crashes,
    output,
    until,
    stats() {
      const next = new Promise<ExporterStats>((resolve) => statsWaiters.push(resolve));
      child.stdin?.write('stats\n');
      return next;
    },
    async finish(timeoutMillis = 60_000) {
      const final = new Promise<ExporterStats>((resolve) => statsWaiters.push(resolve));
      child.stdin?.write('finish\n');
      await until('done', () => lines.includes('done'), timeoutMillis);
      await exited;
      return final;
    },
    async kill() {
      if (!exitedAt) child.kill('SIGKILL');
      await exited;
      await closed;
    },
    exited,
  };
}
