import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Node 24 from the `node` devDependency (the machine's own node may be older). */
export const NODE = existsSync(join(ROOT, 'node_modules/.bin/node'))
  ? join(ROOT, 'node_modules/.bin/node')
  : process.execPath;

/** The built receiver CLI (`npm run build`), in the reslog-receiver package. */
export const RECEIVER_CLI = join(ROOT, 'src/receiver/dist/receiver/cli.js');
