import { randomBytes } from 'node:crypto';
import { normalizePathPrefix } from 'reslog-receiver';
import { GenericContainer, ImageName, Wait } from 'testcontainers';
import { buildReceiverImage } from './receiver-image.js';
import { StartedReslogReceiverContainer } from './started-reslog-receiver-container.js';

/** The port the receiver listens on inside the container (`EXPOSE 8765`). */
export const RECEIVER_PORT = 8765;
/** Where the image looks for a seed file (docker/entrypoint.mjs). */
export const SEED_PATH = '/etc/reslog/seed.json';
/** The receiver's data directory, a volume in the image. */
export const DATA_PATH = '/data';

/** Stands in until `start()` has built the image from docker/Dockerfile. */
const UNBUILT = 'reslog-receiver:unbuilt';

/**
 * A reslog receiver in a container, ready when `/_receiver/health/ready` answers 200.
 *
 * ```ts
 * const receiver = await new ReslogReceiverContainer().withSeed('examples/seed.json').start();
 * ```
 *
 * Without an image name the image is built from docker/Dockerfile on the first `start()` (once
 * per process, reused across runs while its content is unchanged; see `buildReceiverImage`).
 */
export class ReslogReceiverContainer extends GenericContainer {
  private adminToken = randomBytes(16).toString('hex');
  private pathPrefix = '';
  private nodeImage: string | undefined;
  private readonly prebuilt: boolean;

  /** @param image a prebuilt receiver image; default: build docker/Dockerfile */
  constructor(image?: string) {
    super(image ?? UNBUILT);
    this.prebuilt = image !== undefined;
    this.withExposedPorts(RECEIVER_PORT)
      .withEnvironment({ RESLOG_RECEIVER_LOG_LEVEL: 'warn' })
      .withWaitStrategy(Wait.forHttp('/_receiver/health/ready', RECEIVER_PORT).forStatusCode(200))
      .withStartupTimeout(60_000);
  }

  /** Applies a seed (an object, or the path of a JSON file) on every start of the container. */
  withSeed(seed: object | string): this {
    if (typeof seed === 'string') {
      return this.withCopyFilesToContainer([{ source: seed, target: SEED_PATH, mode: 0o644 }]);
    }
    return this.withCopyContentToContainer([
      { content: JSON.stringify(seed), target: SEED_PATH, mode: 0o644 },
    ]);
  }

  /** The control plane's bearer token. @default a random token (`getAdminToken()`) */
  withAdminToken(token: string): this {
    this.adminToken = token;
    return this;
  }

  /**
   * Serves the data plane and the management API under `prefix` (`/DevTools`), as hosts that
   * put the service under a path do; `getBaseUrl()` and the URLs built on it include it, the
   * control plane stays at the root (docs/receiver.md, "Path prefix").
   * @default '' (none)
   */
  withPathPrefix(prefix: string): this {
    this.pathPrefix = normalizePathPrefix(prefix, 'withPathPrefix()');
    return this.withEnvironment({ RESLOG_PATH_PREFIX: this.pathPrefix });
  }

  /**
   * Keeps the database in the named Docker volume `name` (created if missing), so it survives
   * restarts and can be handed to a new container. The caller removes the volume.
   */
  withDatabaseVolume(name: string): this {
    this.hostConfig.Mounts = [
      ...(this.hostConfig.Mounts ?? []).filter((mount) => mount.Target !== DATA_PATH),
      { Type: 'volume', Source: name, Target: DATA_PATH },
    ];
    return this;
  }

  /** Base image (Node 24) to build docker/Dockerfile on; ignored with a prebuilt image. */
  withNodeImage(image: string): this {
    this.nodeImage = image;
    return this;
  }

  override async start(): Promise<StartedReslogReceiverContainer> {
    if (!this.prebuilt) {
      const image = await buildReceiverImage(
        this.nodeImage === undefined ? {} : { nodeImage: this.nodeImage },
      );
      this.imageName = ImageName.fromString(image);
      // GenericContainer's constructor copied the placeholder name into the create options;
      // the container is created from those, not from imageName.
      this.createOpts.Image = image;
    }
    this.withEnvironment({ RESLOG_ADMIN_TOKEN: this.adminToken });
    return new StartedReslogReceiverContainer(
      await super.start(),
      this.adminToken,
      this.pathPrefix,
    );
  }
}
