import { fileURLToPath } from 'node:url';

/**
 * The reslog package root: this file is `src/testing/` in the repository and `dist/testing/`
 * in the published package, two levels below the root either way.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
