import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(ROOT, 'dist/receiver/cli.js');
/** Node 24 from the `node` devDependency (the machine's own node may be older). */
const NODE = existsSync(join(ROOT, 'node_modules/.bin/node'))
  ? join(ROOT, 'node_modules/.bin/node')
  : process.execPath;

/** Everything every receiver process printed, for the secrets check. */
export const printed: string[] = [];

const children = new Set<ChildProcess>();

/** SIGKILLs every receiver still running (afterAll, and on exit of the test process). */
export function killAllReceivers(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}
process.once('exit', killAllReceivers);

export interface ReceiverProcess {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** SIGKILL: no drain, no close of the database. */
  kill(): Promise<void>;
  /** SIGTERM (drain, close the database), then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/**
 * Starts the built CLI (`dist/receiver/cli.js`) on 127.0.0.1 port 0 and resolves once it prints
 * its ready line. The admin token comes through the environment so it is never printed.
 */
export async function startReceiverProcess(
  args: readonly string[],
  adminToken: string,
  /** Options for Node itself, before the script (e.g. V8 heap flags). */
  nodeArgs: readonly string[] = [],
): Promise<ReceiverProcess> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const child = spawn(NODE, [...nodeArgs, CLI, '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, RESLOG_ADMIN_TOKEN: adminToken },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      children.delete(child);
      resolve();
    }),
  );
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => printed.push(text));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('receiver did not start in 20 s')), 20_000);
    lines.on('line', (line) => {
      printed.push(line);
      const match = /^reslog-receiver listening on (http:\/\/\S+)$/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`receiver exited before it was ready: ${printed.slice(-5).join('')}`));
    });
  });
  const signal = async (name: NodeJS.Signals, graceMillis: number) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(name);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMillis);
    await exited;
    clearTimeout(timer);
  };
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid ?? 0,
    kill: () => signal('SIGKILL', 0),
    stop: () => signal('SIGTERM', 10_000),
  };
}
