import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type ProcessGroup, processGroup, stopProcess } from './child-process.ts';
import { NODE, RECEIVER_CLI, ROOT } from './paths.ts';

/** Everything every receiver process printed (stdout lines and stderr), for the secrets check. */
export const printed: string[] = [];

const receivers = processGroup();

/** SIGKILLs every receiver still running (afterAll, and on exit of the test process). */
export function killAllReceivers(): void {
  receivers.killAll();
}

export interface ReceiverProcess {
  readonly process: ChildProcess;
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** SIGKILL: no drain, no close of the database. */
  kill(): Promise<void>;
  /** SIGTERM (drain, close the database), then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

export interface ReceiverProcessOptions {
  /** Sent as `RESLOG_ADMIN_TOKEN`, so it is never on a command line nor printed. */
  adminToken: string;
  /** Options for Node itself, before the script (e.g. V8 heap flags). */
  nodeArgs?: readonly string[];
  /** The Node binary. @default the `node` devDependency, else this process's */
  node?: string;
  /** The CLI script. @default src/receiver/dist/receiver/cli.js (the reslog-receiver build) */
  cli?: string;
  /** @default 20_000 */
  readyTimeoutMillis?: number;
  /** The group that kills it when this process exits. @default the receivers' own */
  group?: ProcessGroup;
}

/**
 * Starts the built receiver CLI on 127.0.0.1 port 0 with the CLI flags `args`, and resolves
 * once it prints its ready line (`reslog-receiver listening on <url>`).
 */
export async function startReceiverProcess(
  args: readonly string[],
  options: ReceiverProcessOptions,
): Promise<ReceiverProcess> {
  const cli = options.cli ?? RECEIVER_CLI;
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  const readyTimeoutMillis = options.readyTimeoutMillis ?? 20_000;
  const child = (options.group ?? receivers).add(
    spawn(
      options.node ?? NODE,
      [...(options.nodeArgs ?? []), cli, '--host', '127.0.0.1', '--port', '0', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, RESLOG_ADMIN_TOKEN: options.adminToken },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => printed.push(text));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`receiver did not start in ${readyTimeoutMillis} ms`));
    }, readyTimeoutMillis);
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
  return {
    process: child,
    url,
    port: Number(new URL(url).port),
    pid: child.pid ?? 0,
    kill: () => stopProcess(child, 0, 'SIGKILL'),
    stop: () => stopProcess(child, 10_000),
  };
}
