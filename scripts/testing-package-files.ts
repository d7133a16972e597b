// Completes the reslog-testcontainers package after its TypeScript build (docs/architecture.md,
// "Packages"): the script that builds a local Node base image where no registry is reachable,
// copied from the repository's docker/, its one home.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = join(root, 'src', 'testing', 'docker');
mkdirSync(target, { recursive: true });
copyFileSync(join(root, 'docker', 'build-node-base.sh'), join(target, 'build-node-base.sh'));
