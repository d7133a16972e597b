import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type Dockerode from 'dockerode';
import { getContainerRuntimeClient, ImageName } from 'testcontainers';
import { PACKAGE_ROOT } from './package-root.js';

/** The base image docker/Dockerfile defaults to (its `ARG NODE_IMAGE`). */
export const DEFAULT_NODE_IMAGE = 'node:24-slim';

const run = promisify(execFile);

// dockerode directly: a failed pull through testcontainers' image client also surfaces as an
// unhandled rejection, and a failed pull is an expected answer here.
function pull(docker: Dockerode, image: string): Promise<void> {
  return new Promise((resolve, reject) => {
    docker.pull(image, (error: unknown, stream?: NodeJS.ReadableStream) => {
      if (error || !stream) return reject(error ?? new Error(`no pull stream for ${image}`));
      docker.modem.followProgress(stream, (failure: Error | null) =>
        failure ? reject(failure) : resolve(),
      );
    });
  });
}

/**
 * The base image to build the receiver on. An explicit choice (`withNodeImage`, or env
 * `RESLOG_NODE_IMAGE`) is used as given. Otherwise `node:24-slim`, pulled if missing; where no
 * registry is reachable, a local stand-in built by docker/build-node-base.sh from the Node
 * binary in node_modules (so an offline engine still works, and a user with a registry never
 * notices).
 */
export async function resolveNodeImage(requested?: string): Promise<string> {
  const explicit = requested ?? (process.env.RESLOG_NODE_IMAGE || undefined);
  if (explicit !== undefined) return explicit;
  const client = await getContainerRuntimeClient();
  const image = ImageName.fromString(DEFAULT_NODE_IMAGE);
  if (await client.image.exists(image)) return DEFAULT_NODE_IMAGE;
  let pullError: unknown;
  try {
    await pull(client.container.dockerode, DEFAULT_NODE_IMAGE);
    return DEFAULT_NODE_IMAGE;
  } catch (error) {
    pullError = error;
  }
  const script = join(PACKAGE_ROOT, 'docker', 'build-node-base.sh');
  if (!existsSync(script)) {
    throw new Error(
      `cannot pull ${DEFAULT_NODE_IMAGE} (${String(pullError)}) and ${script} is not there to build a local base; pass withNodeImage(image) or set RESLOG_NODE_IMAGE`,
    );
  }
  console.warn(
    `reslog-testcontainers: ${DEFAULT_NODE_IMAGE} cannot be pulled here; building a local Node base image with docker/build-node-base.sh`,
  );
  // The base gets the Node binary running this process unless one is named: in an installed
  // package there is no node_modules/.bin/node next to the script.
  const env = {
    ...process.env,
    RESLOG_NODE_BINARY: process.env.RESLOG_NODE_BINARY ?? process.execPath,
  };
  const { stdout } = await run('bash', [script], { cwd: PACKAGE_ROOT, env, maxBuffer: 1 << 20 });
  const tag = stdout.trim().split('\n').pop();
  if (!tag) throw new Error(`${script} printed no image tag`);
  return tag;
}
