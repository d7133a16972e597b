import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE, RECEIVER_CLI, ROOT } from '../harness/paths.ts';
import { startReceiverProcess } from '../harness/receiver-process.ts';

const run = promisify(execFile);

/**
 * Each package of the workspace as a user installs it (docs/architecture.md, "Packages"): packed
 * as npm publishes it, then installed into an empty project. The exporter brings no web server;
 * the receiver runs from its own install; the testcontainers module finds the receiver it
 * builds images of.
 */
describe('the packages install on their own', () => {
  const work = mkdtempSync(join(tmpdir(), 'reslog-packages-'));
  const tarballs: Record<'reslog' | 'receiver' | 'testing', string> = {
    reslog: '',
    receiver: '',
    testing: '',
  };

  async function pack(args: string[]): Promise<string> {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', ...args], {
      cwd: ROOT,
    });
    const [info] = JSON.parse(stdout) as { filename: string }[];
    if (!info) throw new Error(`npm pack ${args.join(' ')} printed nothing`);
    return join(work, info.filename);
  }

  /** An empty project with `specs` installed; returns its directory. */
  async function install(name: string, specs: string[]): Promise<string> {
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
  }

  /** Every installed package of `project` (names from its lockfile), nested ones included. */
  function installed(project: string): string[] {
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    return Object.keys(lock.packages)
      .filter((path) => path !== '')
      .map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  }

  beforeAll(async () => {
    for (const built of [join(ROOT, 'dist', 'index.js'), RECEIVER_CLI]) {
      if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first`);
    }
    const destination = ['--pack-destination', work];
    tarballs.reslog = await pack(destination);
    tarballs.receiver = await pack(['--workspace', 'src/receiver', ...destination]);
    tarballs.testing = await pack(['--workspace', 'src/testing', ...destination]);
  }, 120_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('reslog (the exporter) adds at most 5 packages besides its OpenTelemetry peers', async () => {
    const project = await install('exporter-app', [tarballs.reslog]);
    const packages = installed(project).filter((name) => !name.startsWith('@opentelemetry/'));
    expect(packages.sort()).toEqual(['p-limit', 'reslog', 'undici', 'yocto-queue']);
    expect(packages.length).toBeLessThanOrEqual(5);
    const { stdout } = await run(
      NODE,
      [
        '--input-type=module',
        '-e',
        'const m = await import("reslog"); console.log(typeof m.ResourceLogExporter, typeof m.ResourceLogProcessor)',
      ],
      { cwd: project },
    );
    expect(stdout.trim()).toBe('function function');
  }, 180_000);

  it('reslog-receiver installs alone and its CLI serves', async () => {
    const project = await install('receiver-only', [tarballs.receiver]);
    const packages = installed(project);
    expect(packages).toContain('fastify');
    expect(packages).not.toContain('reslog');
    const cli = join(project, 'node_modules', 'reslog-receiver', 'dist', 'receiver', 'cli.js');
    const receiver = await startReceiverProcess([], { adminToken: 'install-test-admin', cli });
    try {
      const ready = await fetch(`${receiver.url}/_receiver/health/ready`);
      expect(ready.status).toBe(200);
      const openapi = (await (await fetch(`${receiver.url}/_receiver/openapi.json`)).json()) as {
        info: { version: string };
      };
      expect(openapi.info.version).toBe('0.1.0');
    } finally {
      await receiver.stop();
    }
    // The package carries what its image is built from.
    for (const file of ['Dockerfile', 'entrypoint.mjs', 'healthcheck.mjs']) {
      expect(existsSync(join(project, 'node_modules', 'reslog-receiver', 'docker', file))).toBe(
        true,
      );
    }
  }, 180_000);

  it('reslog-testcontainers installs beside the receiver and testcontainers, without the exporter', async () => {
    const testcontainers = JSON.parse(
      readFileSync(join(ROOT, 'node_modules', 'testcontainers', 'package.json'), 'utf8'),
    ) as { version: string };
    const project = await install('container-tests', [
      tarballs.receiver,
      tarballs.testing,
      `testcontainers@${testcontainers.version}`,
    ]);
    const packages = installed(project);
    expect(packages).not.toContain('reslog');
    const { stdout } = await run(
      NODE,
      [
        '--input-type=module',
        '-e',
        'const m = await import("reslog-testcontainers"); console.log(typeof m.ReslogReceiverContainer, typeof m.buildReceiverImage)',
      ],
      { cwd: project },
    );
    expect(stdout.trim()).toBe('function function');
    expect(
      existsSync(
        join(project, 'node_modules', 'reslog-testcontainers', 'docker', 'build-node-base.sh'),
      ),
    ).toBe(true);
    // What the image would be built from, staged from this install's layout (hoisted
    // node_modules beside the receiver, not the repository's workspace link).
    const { stdout: staged } = await run(
      NODE,
      [
        '--input-type=module',
        '-e',
        `const { imageContextFiles } = await import('./node_modules/reslog-testcontainers/dist/image-context.js');
         const { receiverPackageRoot } = await import('./node_modules/reslog-testcontainers/dist/package-root.js');
         const files = await imageContextFiles(receiverPackageRoot());
         console.log(JSON.stringify(files.map((f) => f.target)));`,
      ],
      { cwd: project },
    );
    const targets = JSON.parse(staged) as string[];
    for (const target of [
      'package.json',
      'dist/receiver/cli.js',
      'dist/contract/levels.js',
      'dist/receiver/console-assets/console.js',
      'docker/Dockerfile',
      'docker/entrypoint.mjs',
      'node_modules/fastify/package.json',
      'node_modules/undici/package.json',
    ]) {
      expect(targets).toContain(target);
    }
    // Only the receiver's own dependency closure: not the test tooling installed beside it.
    expect(targets.some((t) => t.startsWith('node_modules/testcontainers/'))).toBe(false);
    expect(targets.some((t) => t.startsWith('node_modules/reslog-testcontainers/'))).toBe(false);
  }, 240_000);
});
