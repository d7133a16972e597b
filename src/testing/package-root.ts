import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest directory at or above `from` that holds a package.json. */
function packageDirectory(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/**
 * This package's directory (reslog-testcontainers): `src/testing/` in the repository, whether
 * this file runs from its source or from `dist/`, and the installed package's directory
 * elsewhere. It holds `docker/build-node-base.sh` once built (docs/architecture.md, "Packages").
 */
export const PACKAGE_ROOT = packageDirectory(dirname(fileURLToPath(import.meta.url)));

/**
 * The installed reslog-receiver package this module builds images of, as Node resolves it from
 * here (in the repository, the npm workspace link to `src/receiver/`), with symlinks resolved so
 * that its own dependencies are found the way Node finds them.
 */
export function receiverPackageRoot(): string {
  const require = createRequire(import.meta.url);
  return dirname(realpathSync(require.resolve('reslog-receiver/package.json')));
}
