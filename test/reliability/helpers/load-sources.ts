/**
 * Imported first by child scripts that load the exporter's sources without a build: the
 * sources import each other as `.js` (NodeNext), so a `.js` specifier that does not resolve is
 * retried as the `.ts` file beside it (Node strips the types). Import the sources afterwards,
 * with a dynamic `import()`, so that they resolve through this hook.
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (!specifier.startsWith('.') || !specifier.endsWith('.js')) throw error;
      return next(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});
