import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from '../helpers/ingest-server.js';

const execFileAsync = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const RESOURCE = '6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c';

/**
 * The exporter must work for users still on the 0.2xx line of @opentelemetry/sdk-logs (with
 * @opentelemetry/api 1.9). A throwaway project installs the packed reslog tarball beside that
 * line, type-checks a program against its types and runs it against a real HTTP server.
 */
describe('compatibility with @opentelemetry/sdk-logs 0.2xx', () => {
  let project: string;
  let server: IngestServer;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'reslog-compat-'));
    // Pack a fresh build of the current source (not whatever dist/ holds) as npm would.
    const pkg = join(project, 'reslog-package');
    for (const file of ['package.json', 'README.md', 'LICENSE']) {
      if (existsSync(join(root, file))) cpSync(join(root, file), join(pkg, file));
    }
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/typescript/bin/tsc'),
        '-p',
        'tsconfig.build.json',
        '--outDir',
        join(pkg, 'dist'),
      ],
      { cwd: root },
    );
    execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', project], {
      cwd: pkg,
    });
    const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'));
    cpSync(join(import.meta.dirname, 'fixture'), project, { recursive: true });
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', `./${tarball}`], {
      cwd: project,
      stdio: 'pipe',
    });
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          allowImportingTsExtensions: true,
          types: ['node'],
        },
        files: ['ship-logs.ts'],
      }),
    );
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('installs beside sdk-logs 0.2xx and api 1.9', () => {
    const version = (name: string) =>
      JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')).version;
    expect(version('@opentelemetry/sdk-logs')).toMatch(/^0\.2\d\d\./);
    expect(version('@opentelemetry/api')).toMatch(/^1\.9\./);
  });

  it('type-checks as a LogRecordExporter of the 0.2xx line', () => {
    // Throws with tsc's diagnostics when the types do not fit.
    execFileSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
      {
        cwd: project,
        stdio: 'pipe',
      },
    );
  });

  it('ships every record through BatchLogRecordProcessor of the 0.2xx line', async () => {
    server = await startIngestServer();
    // Asynchronously: the server lives in this process's event loop.
    const { stdout: output } = await execFileAsync(
      process.execPath,
      ['ship-logs.ts', server.url, RESOURCE],
      {
        cwd: project,
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
      },
    );

    const messages = server
      .ingests()
      .flatMap((r) => r.body.logs.map((l: { message: string }) => l.message));
    expect(messages).toEqual(Array.from({ length: 25 }, (_, i) => `legacy ${i}`));
    expect(server.ingests()[0]?.path).toBe(`/u/alice/resources/${RESOURCE}/logs/`);
    expect(server.ingests()[0]?.body.logs[0]).toMatchObject({
      level: 'warning',
      logger: 'legacy.logger',
    });
    expect(JSON.parse(output.trim().split('\n').at(-1) ?? '{}')).toMatchObject({ exported: 25 });
  });
});
