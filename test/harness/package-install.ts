import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './paths.ts';

export const run = promisify(execFile);

/** The workspace's packages, by the name the tests use. */
export const WORKSPACES = {
  reslog: [],
  receiver: ['--workspace', 'src/receiver'],
  testing: ['--workspace', 'src/testing'],
} as const;

/**
 * A scratch directory where workspace packages are packed as npm publishes them and installed
 * into empty projects, as a user installs them (docs/architecture.md, "Packages").
 */
export function createPackageLab(prefix: string) {
  const work = mkdtempSync(join(tmpdir(), prefix));
  return {
    /** Packs one workspace package (without its scripts: build first); the tarball's path. */
    async pack(name: keyof typeof WORKSPACES): Promise<string> {
      const { stdout } = await run(
        'npm',
        ['pack', '--ignore-scripts', '--json', ...WORKSPACES[name], '--pack-destination', work],
        { cwd: ROOT },
      );
      const [info] = JSON.parse(stdout) as { filename: string }[];
      if (!info) throw new Error(`npm pack of ${name} printed nothing`);
      return join(work, info.filename);
    },
    /** An empty project with `specs` installed; returns its directory. */
    async install(name: string, specs: string[]): Promise<string> {
      const project = join(work, name);
      mkdirSync(project);
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name, private: true, type: 'module' }),
      );
      await run(
        'npm',
        ['install', '--no-audit', '--no-fund', '--prefer-offline', '--silent', ...specs],
        { cwd: project },
      );
      return project;
    },
    remove(): void {
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** Every installed package of `project` (names from its lockfile), nested ones included. */
export function installedPackages(project: string): string[] {
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  return Object.keys(lock.packages)
    .filter((path) => path !== '')
    .map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
}

/** The testcontainers version the repository tests with: what an installed project pins. */
export function testcontainersVersion(): string {
  const manifest = JSON.parse(
    readFileSync(join(ROOT, 'node_modules', 'testcontainers', 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}
