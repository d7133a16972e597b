import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { errnoCode, type SpoolFs } from './spool-fs.js';

/**
 * Writer directories and their locks (docs/exporter.md, "Disk spool"). Each spool writes only
 * into its own `<dir>/w-<id>/`, whose `lock` file names its pid and host and whose mtime is a
 * heartbeat. A writer directory is adopted by moving it, with one `rename`, into the adopter's
 * `adopted/` directory: atomic on POSIX, so of two processes starting together only one gets
 * it, and whoever later adopts the adopter gets the adopted segments with it.
 */
export interface WriterLock {
  readonly pid: number;
  readonly hostname: string;
  readonly writerId: string;
  readonly startedAt: number;
}

export interface WriterDir {
  readonly id: string;
  readonly path: string;
  readonly lockPath: string;
}

export const WRITER_PREFIX = 'w-';
const PENDING_PREFIX = '.tmp-w-';
export const LOCK_FILE = 'lock';
export const ADOPTED_DIR = 'adopted';

/** Writers open in this process: never adopted by another spool of the same process. */
const openWriters = new Set<string>();

/** Creates `<dir>/w-<id>/lock` so that no one ever sees the directory without its lock. */
export function createWriterDir(fs: SpoolFs, dir: string, now: () => number): WriterDir {
  const id = randomBytes(8).toString('hex');
  const pending = join(dir, `${PENDING_PREFIX}${id}`);
  fs.mkdirSync(pending);
  const lock: WriterLock = {
    pid: process.pid,
    hostname: hostname(),
    writerId: id,
    startedAt: now(),
  };
  fs.writeFileSync(join(pending, LOCK_FILE), JSON.stringify(lock));
  const path = join(dir, `${WRITER_PREFIX}${id}`);
  fs.renameSync(pending, path);
  openWriters.add(id);
  return { id, path, lockPath: join(path, LOCK_FILE) };
}

/** The writer was closed: its directory (if it still has batches) is free to adopt at once. */
export function releaseWriter(fs: SpoolFs, writer: WriterDir): void {
  openWriters.delete(writer.id);
  try {
    fs.unlinkSync(writer.lockPath);
  } catch {
    // Already adopted, or removed with its directory.
  }
}

export function forgetWriter(writer: WriterDir): void {
  openWriters.delete(writer.id);
}

/**
 * May this writer directory be taken over? Yes when its lock was released (or is unreadable),
 * when it is a closed writer of this process, when its pid is not alive on this host, or when
 * its heartbeat is older than `staleMillis` (another host, or the pid was reused after a reboot).
 */
export function isAdoptable(
  fs: SpoolFs,
  path: string,
  writerId: string,
  now: () => number,
  staleMillis: number,
): boolean {
  if (openWriters.has(writerId)) return false;
  const lockPath = join(path, LOCK_FILE);
  let lock: WriterLock;
  let mtime: number;
  try {
    lock = JSON.parse(fs.readFileSync(lockPath).toString('utf8')) as WriterLock;
    mtime = fs.statMtimeMillis(lockPath);
  } catch {
    return true;
  }
  if (lock.hostname === hostname()) {
    if (lock.pid === process.pid || !isAlive(lock.pid)) return true;
  }
  return now() - mtime > staleMillis;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the pid exists but belongs to another user.
    return errnoCode(error) !== 'ESRCH';
  }
}

/** Moves `<dir>/<name>` into `<into>/adopted/<name>`; false when another process was first. */
export function adoptWriterDir(fs: SpoolFs, dir: string, name: string, into: string): boolean {
  const adopted = join(into, ADOPTED_DIR);
  try {
    fs.mkdirSync(adopted);
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') return false;
  }
  try {
    fs.renameSync(join(dir, name), join(adopted, name));
    return true;
  } catch {
    return false;
  }
}

/** Writer directories directly in `dir`, and half-created ones left by a crash (to delete). */
export function listWriterDirs(fs: SpoolFs, dir: string): { writers: string[]; pending: string[] } {
  const names = fs.readdirSync(dir).sort();
  return {
    writers: names.filter((n) => n.startsWith(WRITER_PREFIX)),
    pending: names.filter((n) => n.startsWith(PENDING_PREFIX)),
  };
}

export function pendingWriterId(name: string): string {
  return name.slice(PENDING_PREFIX.length);
}

/** Touches the lock every `intervalMillis`; tells `onLost` once if the lock was taken away. */
export function startHeartbeat(
  fs: SpoolFs,
  writer: WriterDir,
  now: () => number,
  intervalMillis: number,
  onLost: () => void,
): () => void {
  let lost = false;
  const timer = setInterval(() => {
    try {
      fs.utimesSync(writer.lockPath, new Date(now()));
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' && !lost) {
        lost = true;
        onLost();
      }
    }
  }, intervalMillis);
  timer.unref();
  return () => clearInterval(timer);
}
