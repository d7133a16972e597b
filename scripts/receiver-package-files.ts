// Completes the reslog-receiver package after its TypeScript build (docs/architecture.md,
// "Packages"): its CLI made executable, the container files it ships under docker/ (copied
// from the repository's docker/, their one home) and the web console's assets under
// dist/receiver/console-assets/.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = join(root, 'src', 'receiver');

// The package's bin: npm links it on install, but a workspace links it before this build ran.
chmodSync(join(pkg, 'dist', 'receiver', 'cli.js'), 0o755);

mkdirSync(join(pkg, 'docker'), { recursive: true });
for (const name of ['Dockerfile', 'entrypoint.mjs', 'healthcheck.mjs']) {
  copyFileSync(join(root, 'docker', name), join(pkg, 'docker', name));
}

execFileSync(
  process.execPath,
  [join(root, 'scripts', 'build-console.ts'), join(pkg, 'dist', 'receiver', 'console-assets')],
  { stdio: 'inherit' },
);
