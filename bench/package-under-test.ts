import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built package (`npm run build`), as users get it; typed from its sources. */
const DIST_INDEX = new URL('../dist/index.js', import.meta.url);
export const RECEIVER_CLI = fileURLToPath(new URL('../dist/receiver/cli.js', import.meta.url));

export function assertBuilt(): void {
  for (const file of [fileURLToPath(DIST_INDEX), RECEIVER_CLI]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
  }
}

// A computed specifier keeps the type check independent of dist/ being built.
export async function loadReslog(): Promise<typeof import('../src/index.ts')> {
  assertBuilt();
  return (await import(DIST_INDEX.href)) as typeof import('../src/index.ts');
}
