import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The built packages (`npm run build`), as users get them, typed from their sources: reslog
 * (the exporter, dist/) and reslog-receiver (src/receiver/dist/). `snapshotDist` copies both
 * next to the bench once per run and every child process loads that copy
 * (`RESLOG_BENCH_DIST`): a rebuild during the run (which first deletes them) neither breaks the
 * run nor mixes two builds in one table. The copy stays inside the repository so that its
 * imports still resolve from node_modules/.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the snapshot keeps the receiver package's dist/ beside the exporter's. */
const RECEIVER_SUBDIR = 'receiver-package';

function distDir(): string {
  return process.env.RESLOG_BENCH_DIST ?? join(ROOT, 'dist');
}

function receiverDistDir(): string {
  const snapshot = process.env.RESLOG_BENCH_DIST;
  return snapshot ? join(snapshot, RECEIVER_SUBDIR) : join(ROOT, 'src', 'receiver', 'dist');
}

export function receiverCli(): string {
  return join(receiverDistDir(), 'receiver', 'cli.js');
}

export function assertBuilt(dir = distDir(), receiverDir = receiverDistDir()): void {
  for (const file of [join(dir, 'index.js'), join(receiverDir, 'receiver', 'cli.js')]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
  }
}

/** Copies both dist/ folders to bench/.dist-<pid>/ for this run's children; returns its removal. */
export function snapshotDist(): () => void {
  const receiverDist = join(ROOT, 'src', 'receiver', 'dist');
  assertBuilt(join(ROOT, 'dist'), receiverDist);
  const copy = join(ROOT, 'bench', `.dist-${process.pid}`);
  cpSync(join(ROOT, 'dist'), copy, { recursive: true });
  cpSync(receiverDist, join(copy, RECEIVER_SUBDIR), { recursive: true });
  assertBuilt(copy, join(copy, RECEIVER_SUBDIR));
  process.env.RESLOG_BENCH_DIST = copy;
  const remove = () => rmSync(copy, { recursive: true, force: true });
  process.once('exit', remove);
  return remove;
}

// A computed specifier keeps the type check independent of dist/ being built.
export async function loadReslog(): Promise<typeof import('../src/index.ts')> {
  assertBuilt();
  const url = pathToFileURL(join(distDir(), 'index.js')).href;
  return (await import(url)) as typeof import('../src/index.ts');
}
