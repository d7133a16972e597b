import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { getContainerRuntimeClient } from 'testcontainers';
import type { TestProject } from 'vitest/node';
import { buildReceiverImage } from '../../src/testing/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The receiver image for this run, or null when no Docker engine is reachable. */
    receiverImage: string | null;
  }
}

const root = join(import.meta.dirname, '..', '..');

function banner(lines: string[]): string {
  const rule = '!'.repeat(78);
  return `\n${rule}\n${lines.map((line) => `!! ${line}`).join('\n')}\n${rule}\n`;
}

function newestMillis(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    // Build output inside src/ (each package's dist/ and docker/) is not source.
    if (entry.name === 'dist' || entry.name === 'docker') continue;
    const path = join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMillis(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * testcontainers starts a reaper container (Ryuk) that removes containers if the run dies.
 * Where its image can neither be found nor pulled (an engine without a registry), run without
 * it, loudly: the suites stop their own containers, and .ci/run removes leftovers.
 */
async function disableReaperIfUnavailable(): Promise<void> {
  if (process.env.TESTCONTAINERS_RYUK_DISABLED === 'true') return;
  const image = process.env.RYUK_CONTAINER_IMAGE || 'testcontainers/ryuk:0.14.0';
  const docker = (await getContainerRuntimeClient()).container.dockerode;
  if (
    await docker
      .getImage(image)
      .inspect()
      .then(
        () => true,
        () => false,
      )
  )
    return;
  const pulled = await new Promise<boolean>((resolve) => {
    docker.pull(image, (error: unknown, stream?: NodeJS.ReadableStream) => {
      if (error || !stream) return resolve(false);
      docker.modem.followProgress(stream, (failure: Error | null) => resolve(!failure));
    });
  });
  if (pulled) return;
  console.warn(
    banner([`${image} cannot be pulled: running with TESTCONTAINERS_RYUK_DISABLED=true.`]),
  );
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
}

async function dockerProblem(): Promise<string | undefined> {
  try {
    await getContainerRuntimeClient();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export default async function setup(project: TestProject) {
  const problem = await dockerProblem();
  if (problem !== undefined) {
    const message = [
      'NO DOCKER ENGINE: the container integration suite (test/integration) is SKIPPED.',
      `testcontainers: ${problem.split('\n')[0]}`,
      'Start a Docker engine (see docs/testing.md) or set RESLOG_REQUIRE_DOCKER=1 to fail.',
    ];
    if (process.env.RESLOG_REQUIRE_DOCKER === '1') {
      throw new Error(`RESLOG_REQUIRE_DOCKER=1 but no Docker engine is reachable: ${problem}`);
    }
    console.warn(banner(message));
    project.provide('receiverImage', null);
    // Said again after the run, where it is not lost above the test report.
    return () => console.warn(banner(message));
  }

  await disableReaperIfUnavailable();
  // The image is built from dist/: a missing build is an error, a stale one a loud warning
  // (the unit tests of the same run test src/, the container would run older code).
  const cli = join(root, 'src', 'receiver', 'dist', 'receiver', 'cli.js');
  if (!existsSync(cli)) {
    throw new Error('the integration suite needs dist/: run `npm run build` first');
  }
  if (newestMillis(join(root, 'src')) > statSync(cli).mtimeMs) {
    console.warn(
      banner(['src/ is newer than dist/: the receiver image is built from the older dist/.']),
    );
  }
  const started = Date.now();
  const image = await buildReceiverImage();
  console.warn(`integration: receiver image ${image} ready in ${Date.now() - started} ms`);
  project.provide('receiverImage', image);
}
