import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GenericContainer, getContainerRuntimeClient, ImageName } from 'testcontainers';
import { hashContext, imageContextFiles, writeContext } from './image-context.js';
import { resolveNodeImage } from './node-image.js';
import { receiverPackageRoot } from './package-root.js';

/** Options of {@link buildReceiverImage}. */
export interface BuildReceiverImageOptions {
  /**
   * Base image with Node 24 (`docker/Dockerfile`'s `NODE_IMAGE` build argument).
   * @default env `RESLOG_NODE_IMAGE`, else `node:24-slim`, else a local base (see docs/testing.md)
   */
  nodeImage?: string;
  /**
   * Image name to build. The default tag is derived from the content, so an unchanged build is
   * reused across test runs and a changed one is rebuilt.
   * @default `reslog-receiver:<content hash>`
   */
  tag?: string;
  /**
   * The reslog-receiver package directory holding `dist/`, `docker/` and `package.json`; its
   * dependencies are found from there the way Node finds them.
   * @default the reslog-receiver package this module resolves
   */
  root?: string;
}

const builds = new Map<string, Promise<string>>();

async function build(options: BuildReceiverImageOptions): Promise<string> {
  const root = options.root ?? receiverPackageRoot();
  const files = await imageContextFiles(root);
  const nodeImage = await resolveNodeImage(options.nodeImage);
  const client = await getContainerRuntimeClient();
  const base = await client.container.dockerode
    .getImage(nodeImage)
    .inspect()
    .then(
      (info) => info.Id,
      () => '',
    );
  const hash = await hashContext(files, `${nodeImage}@${base}`);
  const tag = options.tag ?? `reslog-receiver:${hash.slice(0, 16)}`;
  // A content-derived tag that exists is this very build; a chosen tag is always rebuilt
  // (Docker's layer cache keeps that cheap when nothing changed).
  if (options.tag === undefined && (await client.image.exists(ImageName.fromString(tag)))) {
    return tag;
  }

  const context = await mkdtemp(join(tmpdir(), 'reslog-image-'));
  try {
    await writeContext(files, context);
    await GenericContainer.fromDockerfile(context, 'docker/Dockerfile')
      .withBuildArgs({ NODE_IMAGE: nodeImage })
      .build(tag, { deleteOnExit: false });
  } finally {
    await rm(context, { recursive: true, force: true });
  }
  return tag;
}

/**
 * Builds the receiver image from `docker/Dockerfile` on the host's installed reslog-receiver
 * (its `dist/` plus its production `node_modules`; nothing is downloaded) and returns its name. Builds once per
 * process and content: concurrent and repeated calls share one build, and an image with the
 * same content hash from an earlier run is reused as it is.
 */
export function buildReceiverImage(options: BuildReceiverImageOptions = {}): Promise<string> {
  const key = JSON.stringify([options.root, options.nodeImage, options.tag]);
  let pending = builds.get(key);
  if (!pending) {
    pending = build(options);
    builds.set(key, pending);
    pending.catch(() => builds.delete(key));
  }
  return pending;
}
