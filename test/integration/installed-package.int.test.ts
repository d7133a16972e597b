import { afterAll, describe, expect, it } from 'vitest';
import { createPackageLab, run, testcontainersVersion } from '../harness/package-install.ts';
import { NODE } from '../harness/paths.ts';
import { receiverImage } from './helpers/receiver.js';

/**
 * What a user of reslog-testcontainers gets, end to end: the packed receiver and testcontainers
 * module installed into an empty project (no repository, no workspace links), whose
 * `new ReslogReceiverContainer().start()` builds the image from that install and serves.
 * test/compat/packages-install.test.ts checks what the image context holds; this builds it.
 */
const TAG = 'reslog-receiver:installed-package-test';

describe.skipIf(!receiverImage)('reslog-testcontainers installed from its package', () => {
  const lab = createPackageLab('reslog-installed-');
  afterAll(() => lab.remove());

  it('builds the receiver image from the installed packages and starts it', async () => {
    const project = await lab.install('container-user', [
      await lab.pack('receiver'),
      await lab.pack('testing'),
      `testcontainers@${testcontainersVersion()}`,
    ]);
    // A chosen tag is always built (a content tag that exists would be reused, and this
    // install's context may well hash like the repository's); then the documented default
    // path, which builds (or reuses) the content-tagged image and starts it.
    const script = `
      import { buildReceiverImage, ReslogReceiverContainer } from 'reslog-testcontainers';
      const probe = async (started) => {
        try {
          const ready = await fetch(started.getRootUrl() + '/_receiver/health/ready');
          const page = await fetch(started.getConsoleUrl());
          const bundle = await fetch(started.getRootUrl() + '/console/console.js');
          return [ready.status, page.status, page.headers.get('content-type'), bundle.status];
        } finally {
          await started.stop();
        }
      };
      const image = await buildReceiverImage({ tag: ${JSON.stringify(TAG)} });
      const built = await probe(await new ReslogReceiverContainer(image).start());
      const byDefault = await probe(await new ReslogReceiverContainer().start());
      console.log(JSON.stringify({ image, built, byDefault }));`;
    const { stdout } = await run(NODE, ['--input-type=module', '-e', script], {
      cwd: project,
      env: process.env,
      timeout: 240_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      image: string;
      built: unknown[];
      byDefault: unknown[];
    };
    expect(result.image).toBe(TAG);
    const serving = [200, 200, 'text/html; charset=utf-8', 200];
    expect(result.built).toEqual(serving);
    expect(result.byDefault).toEqual(serving);
  }, 360_000);
});
