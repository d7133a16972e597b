import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The built package (`npm run build`), as users get it, typed from its sources. `snapshotDist`
 * copies dist/ next to the bench once per run and every child process loads that copy
 * (`RESLOG_BENCH_DIST`): a rebuild during the run (which first deletes dist/) neither breaks
 * the run nor mixes two builds in one table. The copy stays inside the repository so that
 * its imports still resolve from node_modules/.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function distDir(): string {
  return process.env.RESLOG_BENCH_DIST ?? join(ROOT, 'dist');
}

export function receiverCli(): string {
  return join(distDir(), 'receiver', 'cli.js');
}

export function assertBuilt(dir = distDir()): void {
  for (const file of [join(dir, 'index.js'), join(dir, 'receiver', 'cli.js')]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
  }
}

/** Copies dist/ to bench/.dist-<pid>/ for this run's children; returns its removal. */
export function snapshotDist(): () => void {
  assertBuilt(join(ROOT, 'dist'));
  const copy = join(ROOT, 'bench', `.dist-${process.pid}`);
  cpSync(join(ROOT, 'dist'), copy, { recursive: true });
  assertBuilt(copy);
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
