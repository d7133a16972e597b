import * as fs from 'node:fs';

/**
 * The file-system calls the spool makes, all synchronous: an append must be in the page cache
 * before `append()` returns (docs/exporter.md, "Disk spool"). Tests replace single calls to
 * simulate a full disk or a failing device.
 */
export interface SpoolFs {
  openSync(path: string, flags: string): number;
  closeSync(fd: number): void;
  writeSync(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
  readSync(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
  fsyncSync(fd: number): void;
  ftruncateSync(fd: number, length: number): void;
  readFileSync(path: string): Buffer;
  writeFileSync(path: string, data: string): void;
  mkdirSync(path: string): void;
  /** Creates the directory and its parents; fine when it exists. */
  ensureDirSync(path: string): void;
  renameSync(from: string, to: string): void;
  readdirSync(path: string): string[];
  unlinkSync(path: string): void;
  rmSync(path: string): void;
  statMtimeMillis(path: string): number;
  utimesSync(path: string, time: Date): void;
}

export const nodeSpoolFs: SpoolFs = {
  openSync: (path, flags) => fs.openSync(path, flags),
  closeSync: (fd) => fs.closeSync(fd),
  writeSync: (fd, buffer, offset, length, position) =>
    fs.writeSync(fd, buffer, offset, length, position),
  readSync: (fd, buffer, offset, length, position) =>
    fs.readSync(fd, buffer, offset, length, position),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
  readFileSync: (path) => fs.readFileSync(path),
  writeFileSync: (path, data) => fs.writeFileSync(path, data),
  mkdirSync: (path) => {
    fs.mkdirSync(path);
  },
  ensureDirSync: (path) => {
    fs.mkdirSync(path, { recursive: true });
  },
  renameSync: (from, to) => fs.renameSync(from, to),
  readdirSync: (path) => fs.readdirSync(path),
  unlinkSync: (path) => fs.unlinkSync(path),
  rmSync: (path) => fs.rmSync(path, { recursive: true, force: true }),
  statMtimeMillis: (path) => fs.statSync(path).mtimeMs,
  utimesSync: (path, time) => fs.utimesSync(path, time, time),
};

/** The errno code of a file-system error (`ENOSPC`, `ENOENT`, …), if it has one. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
