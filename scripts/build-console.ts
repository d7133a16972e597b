// Builds the receiver's web console (docs/receiver.md, "Web console") ahead of time: one
// esbuild bundle of src/receiver/console/ (Preact included), its stylesheet and index.html,
// written into an assets folder the receiver reads at start. The receiver itself never runs
// esbuild and has no runtime dependency for the console.
//   node scripts/build-console.ts                       → src/receiver/console-assets/
//   node scripts/build-console.ts dist/receiver/console-assets
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const SOURCE = fileURLToPath(new URL('../src/receiver/console/', import.meta.url));
/** Where a source checkout's receiver looks for the assets (console-routes.ts). */
export const DEFAULT_OUT_DIR = fileURLToPath(
  new URL('../src/receiver/console-assets/', import.meta.url),
);

/** What one build wrote: each file's name with its raw and gzip size in bytes. */
export interface ConsoleBuild {
  outDir: string;
  files: { name: string; bytes: number; gzipBytes: number }[];
}

/** Bundles the console into `outDir` (replacing what was there): index.html, console.js, console.css. */
export async function buildConsole(outDir: string = DEFAULT_OUT_DIR): Promise<ConsoleBuild> {
  const result = await build({
    entryPoints: { console: resolve(SOURCE, 'main.tsx') },
    bundle: true,
    minify: true,
    target: 'es2022',
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: resolve(SOURCE, 'tsconfig.json'),
    legalComments: 'none',
    outdir: outDir,
    write: false,
    logLevel: 'warning',
  });
  const outputs = new Map<string, Uint8Array>();
  for (const file of result.outputFiles) {
    outputs.set(file.path.slice(file.path.lastIndexOf('/') + 1), file.contents);
  }
  outputs.set('index.html', readFileSync(resolve(SOURCE, 'index.html')));
  for (const name of ['console.js', 'console.css']) {
    if (!outputs.has(name)) throw new Error(`esbuild wrote no ${name}`);
  }
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const files: ConsoleBuild['files'] = [];
  for (const [name, contents] of outputs) {
    writeFileSync(resolve(outDir, name), contents);
    files.push({ name, bytes: contents.byteLength, gzipBytes: gzipSync(contents).byteLength });
  }
  return { outDir, files };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = process.argv[2] === undefined ? DEFAULT_OUT_DIR : resolve(process.argv[2]);
  const built = await buildConsole(outDir);
  for (const file of built.files) {
    console.log(`${file.name.padEnd(12)} ${file.bytes} bytes (${file.gzipBytes} gzip)`);
  }
  console.log(`console assets written to ${built.outDir}`);
}
