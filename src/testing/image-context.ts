import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** One file of the image build context: where it comes from and where it goes in the context. */
export interface ContextFile {
  source: string;
  target: string;
}

/** Declarations, source maps and docs are not needed at run time (and are most of the bytes). */
const SKIPPED = /\.(?:map|d\.[cm]?ts|md)$/;

async function listFiles(directory: string, skip: (path: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (skip(path)) continue;
    if (entry.isDirectory()) out.push(...(await listFiles(path, skip)));
    else if (entry.isFile() && !SKIPPED.test(entry.name)) out.push(path);
  }
  return out;
}

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

async function readManifest(directory: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as Manifest;
}

/** Node's lookup: `<dir>/node_modules/<name>`, then the same in every parent directory. */
function resolvePackage(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The installed directories of the production dependency closure of the package at `root`:
 * `dependencies`, `optionalDependencies` and required peers, resolved the way Node resolves
 * them, so it works in this repository and where reslog is installed as a dependency. Nothing
 * is downloaded: the image gets exactly what the host already installed.
 */
export async function productionPackages(root: string): Promise<string[]> {
  const found = new Set<string>();
  const visit = async (directory: string, isRoot: boolean) => {
    const manifest = await readManifest(directory);
    const required = Object.keys(manifest.peerDependencies ?? {}).filter(
      (peer) => !isRoot && !manifest.peerDependenciesMeta?.[peer]?.optional,
    );
    const names = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...required,
    ];
    for (const name of names) {
      const location = resolvePackage(name, directory);
      if (location === undefined) {
        // An optional dependency for another platform is legitimately absent; anything else
        // means an incomplete install, which would only fail later inside the container.
        if (name in (manifest.optionalDependencies ?? {})) continue;
        throw new Error(
          `cannot stage the receiver image: ${name} (needed by ${directory}) is not installed; run npm ci`,
        );
      }
      if (found.has(location)) continue;
      found.add(location);
      await visit(location, false);
    }
  };
  await visit(root, true);
  return [...found].sort();
}

/**
 * Where an installed package goes under /app in the image: below the receiver package itself,
 * its path there (`node_modules/a`); elsewhere the path from the outermost node_modules
 * (`…/node_modules/a/node_modules/b` → `node_modules/a/node_modules/b`).
 */
function modulePath(location: string, root: string): string {
  if (location.startsWith(root + sep)) return relative(root, location).split(sep).join('/');
  const parts = location.split(sep);
  const first = parts.indexOf('node_modules');
  return parts.slice(first).join('/');
}

/**
 * Every file the Dockerfile copies, laid out as in the reslog-receiver package at `root`:
 * `package.json`, `dist/`, the production `node_modules`, and the Dockerfile, entrypoint and
 * health check under `docker/` (which the package's build copies from the repository's docker/).
 */
export async function imageContextFiles(root: string): Promise<ContextFile[]> {
  const cli = join(root, 'dist', 'receiver', 'cli.js');
  if (!existsSync(cli)) {
    throw new Error(
      `cannot build the receiver image: ${cli} does not exist. Build the reslog-receiver package first (npm run build).`,
    );
  }
  const files: ContextFile[] = [];
  const add = (source: string, target: string) => files.push({ source, target });
  add(join(root, 'package.json'), 'package.json');
  for (const name of ['Dockerfile', 'entrypoint.mjs', 'healthcheck.mjs']) {
    add(join(root, 'docker', name), `docker/${name}`);
  }
  for (const file of await listFiles(join(root, 'dist'), () => false)) {
    add(file, relative(root, file).split(sep).join('/'));
  }
  const targets = new Map<string, string>();
  for (const location of await productionPackages(root)) {
    const target = modulePath(location, root);
    const other = targets.get(target);
    if (other !== undefined && other !== location) {
      throw new Error(
        `cannot stage the receiver image: ${other} and ${location} both map to ${target}`,
      );
    }
    targets.set(target, location);
  }
  const nested = (p: string) => [...targets.values()].some((t) => p !== t && p.startsWith(t + sep));
  for (const [target, location] of targets) {
    // A nested package is copied with the package that contains it.
    if (nested(location)) continue;
    for (const file of await listFiles(location, (p) => p.endsWith(`${sep}.bin`))) {
      add(file, `${target}/${relative(location, file).split(sep).join('/')}`);
    }
  }
  return files.sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
}

/** SHA-256 over every context file's path and bytes plus the base image: the image's tag. */
export async function hashContext(
  files: readonly ContextFile[],
  baseImage: string,
): Promise<string> {
  const hash = createHash('sha256').update(`base:${baseImage}\0`);
  for (const file of files) {
    hash
      .update(`${file.target}\0`)
      .update(await readFile(file.source))
      .update('\0');
  }
  return hash.digest('hex');
}

/** Copies the files into `directory`, plus the empty `docker/data/` the image turns into /data. */
export async function writeContext(
  files: readonly ContextFile[],
  directory: string,
): Promise<void> {
  await mkdir(join(directory, 'docker', 'data'), { recursive: true });
  for (const file of files) {
    const target = join(directory, ...file.target.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await cp(file.source, target, { dereference: true });
  }
}
