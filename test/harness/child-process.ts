import { type ChildProcess, fork, spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * Every process the bench starts, so that all of them are killed when the run ends, fails
 * or is interrupted: no server or load generator outlives `npm run bench`.
 */
const children = new Set<ChildProcess>();

export function killAll(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export interface BenchChild {
  readonly process: ChildProcess;
  /** Resolves with the next IPC message of `type`; rejects if the child dies first or times out. */
  next<T>(type: string, timeoutMillis: number): Promise<T>;
  send(message: object): void;
  /** SIGTERM, then SIGKILL after `graceMillis`; resolves once the process has exited. */
  stop(graceMillis?: number): Promise<void>;
}

/** Forks a bench TypeScript module (Node's type stripping) with IPC and `--expose-gc`. */
export function forkBench(
  file: string,
  config: object,
  options: { execArgv?: string[]; env?: NodeJS.ProcessEnv } = {},
): BenchChild {
  const child = track(
    fork(file, [JSON.stringify(config)], {
      execArgv: ['--expose-gc', ...(options.execArgv ?? [])],
      env: options.env ?? process.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const inbox: Array<{ type: string }> = [];
  const waiters = new Set<() => void>();
  child.on('message', (message) => {
    inbox.push(message as { type: string });
    for (const wake of waiters) wake();
  });
  // 'close', not 'exit': 'close' comes once the IPC channel is closed, after every message
  // in it was delivered, so a large last message cannot be overtaken by the exit.
  let closed = false;
  child.once('close', () => {
    closed = true;
    for (const wake of waiters) wake();
  });
  return {
    process: child,
    send: (message) => child.send(message),
    next<T>(type: string, timeoutMillis: number): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = () => {
          const index = inbox.findIndex((m) => m.type === type || m.type === 'error');
          if (index >= 0) {
            const [message] = inbox.splice(index, 1) as [{ type: string; message?: string }];
            done();
            if (message.type === 'error' && type !== 'error') {
              reject(new Error(`${file}: ${message.message}`));
            } else resolve(message as T);
          } else if (closed) {
            done();
            reject(
              new Error(`${file} exited (${child.exitCode ?? child.signalCode}) before "${type}"`),
            );
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${file}: no "${type}" within ${timeoutMillis} ms`));
        }, timeoutMillis);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    stop: (graceMillis = 5000) => stopProcess(child, graceMillis),
  };
}

export async function stopProcess(child: ChildProcess, graceMillis = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMillis);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts a plain command (the receiver CLI) and resolves with the URL from its ready line
 * (`... listening on <url>` on stdout).
 */
export async function spawnServer(
  command: string,
  args: string[],
  timeoutMillis: number,
): Promise<{ process: ChildProcess; url: string }> {
  const child = track(spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => fail(`no ready line within ${timeoutMillis} ms`), timeoutMillis);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${args[0]}: ${why}\n${stderr}`));
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before ready`));
  });
  child.stdout?.resume();
  return { process: child, url };
}

/** User + system CPU milliseconds a process has used so far (Linux /proc), else NaN. */
export async function processCpuMillis(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  try {
    const { readFile } = await import('node:fs/promises');
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted after the command name; clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
