import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';

/**
 * Child processes started by a test, the bench or a script, so that all of them are killed
 * when the run ends, fails or is interrupted: no server or load generator outlives it.
 */
export interface ProcessGroup {
  add<T extends ChildProcess>(child: T): T;
  /** SIGKILLs every child of the group still running. */
  killAll(): void;
}

/** A group whose children are SIGKILLed at the latest when this process exits. */
export function processGroup(): ProcessGroup {
  const members = new Set<ChildProcess>();
  const killAll = () => {
    for (const child of members) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    members.clear();
  };
  process.once('exit', killAll);
  return {
    add(child) {
      members.add(child);
      child.once('exit', () => members.delete(child));
      return child;
    },
    killAll,
  };
}

/** The group of {@link forkChild}'s children unless another is given (the bench's). */
export const children = processGroup();

/** SIGKILLs every child in {@link children}. */
export function killAll(): void {
  children.killAll();
}

/** For a command-line entry point: on SIGINT or SIGTERM, kill `group` and exit 130. */
export function killOnSignals(group: ProcessGroup = children): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      group.killAll();
      process.exit(130);
    });
  }
}

export interface ForkedChild {
  readonly process: ChildProcess;
  /** Resolves with the next IPC message of `type`; rejects if the child dies first or times out. */
  next<T>(type: string, timeoutMillis: number): Promise<T>;
  send(message: object): void;
  /** SIGTERM, then SIGKILL after `graceMillis`; resolves once the process has exited. */
  stop(graceMillis?: number): Promise<void>;
}

/**
 * Forks a TypeScript module (Node's type stripping) with IPC and `--expose-gc`, `config` as
 * JSON in its first argument. A message `{type: 'error', message}` rejects any `next()`.
 */
export function forkChild(
  file: string,
  config: object,
  options: { execArgv?: string[]; env?: NodeJS.ProcessEnv; group?: ProcessGroup } = {},
): ForkedChild {
  const child = (options.group ?? children).add(
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

/**
 * Sends `signal` (SIGTERM: let it drain), then SIGKILL after `graceMillis`; resolves once the
 * process has exited. At once when it already has.
 */
export async function stopProcess(
  child: ChildProcess,
  graceMillis = 5000,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMillis);
  await exited;
  clearTimeout(timer);
}

/** User + system CPU milliseconds a process has used so far (Linux /proc), else NaN. */
export async function processCpuMillis(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted after the command name; clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
