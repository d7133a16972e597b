import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPackageLab,
  installedPackages,
  run,
  testcontainersVersion,
} from '../harness/package-install.ts';
import { NODE, RECEIVER_CLI, ROOT } from '../harness/paths.ts';
import { startReceiverProcess } from '../harness/receiver-process.ts';

/**
 * Each package of the workspace as a user installs it (docs/architecture.md, "Packages"): packed
 * as npm publishes it, then installed into an empty project. The exporter brings no web server;
 * the receiver runs from its own install; the testcontainers module finds the receiver it
 * builds images of.
 */
describe('the packages install on their own', () => {
  const lab = createPackageLab('reslog-packages-');
  const tarballs: Record<'reslog' | 'receiver' | 'testing', string> = {
    reslog: '',
    receiver: '',
    testing: '',
  };

  beforeAll(async () => {
    for (const built of [join(ROOT, 'dist', 'index.js'), RECEIVER_CLI]) {
      if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first`);
    }
    tarballs.reslog = await lab.pack('reslog');
    tarballs.receiver = await lab.pack('receiver');
    tarballs.testing = await lab.pack('testing');
  }, 120_000);

  afterAll(() => lab.remove());

  it('reslog (the exporter) adds at most 5 packages besides its OpenTelemetry peers', async () => {
    const project = await lab.install('exporter-app', [tarballs.reslog]);
    const packages = installedPackages(project).filter(
      (name) => !name.startsWith('@opentelemetry/'),
    );
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
    const project = await lab.install('receiver-only', [tarballs.receiver]);
    const packages = installedPackages(project);
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
    const project = await lab.install('container-tests', [
      tarballs.receiver,
      tarballs.testing,
      `testcontainers@${testcontainersVersion()}`,
    ]);
    const packages = installedPackages(project);
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
