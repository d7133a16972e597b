import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, startDemoReceiver, UUIDS } from '../examples/harness.js';

const execFileAsync = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** Code blocks whose info string says `runnable`: ```ts runnable / ```sh runnable. */
const blocks = [...readme.matchAll(/```(ts|sh) runnable\n([\s\S]*?)```/g)].map((m) => ({
  lang: m[1] as 'ts' | 'sh',
  code: m[2] as string,
}));

describe('README code blocks marked runnable', () => {
  let receiver: Awaited<ReturnType<typeof startDemoReceiver>>;
  let scratch: string;
  beforeAll(async () => {
    receiver = await startDemoReceiver();
    // Inside the package, so that `import ... from 'reslog'` resolves as for a user.
    scratch = mkdtempSync(join(root, '.readme-'));
  });
  afterAll(async () => {
    await receiver?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('has runnable blocks', () => {
    expect(blocks.map((b) => b.lang).sort()).toEqual(['sh', 'ts']);
  });

  it('the exporter quickstart ships its log with RESLOG_* from the environment', async () => {
    const block = blocks.find((b) => b.lang === 'ts');
    const file = join(scratch, 'quickstart.ts');
    writeFileSync(file, block?.code ?? '');
    const uuid = UUIDS['checkout-api'];
    const { stdout } = await execFileAsync(process.execPath, [file], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_NO_WARNINGS: '1',
        RESLOG_RESOURCE: `${receiver.url}/u/demo/resources/${uuid}/`,
        RESLOG_API_KEY: DEMO_KEY,
      },
    });
    expect(stdout).toContain('exported: 1');
    const logs = await receiver.logs(uuid);
    expect(logs.at(-1)).toMatchObject({ message: 'payment accepted', logger: 'checkout.http' });
  });

  it('the curl ingest and read-back work as shown (against the demo receiver)', async () => {
    const block = blocks.find((b) => b.lang === 'sh');
    // The README names the default port; the test's receiver has a free one.
    const script = (block?.code ?? '').replaceAll('http://127.0.0.1:8765', receiver.url);
    const { stdout } = await execFileAsync('bash', ['-euo', 'pipefail', '-c', script]);
    const [ingest, read] = stdout.trim().split('\n');
    expect(JSON.parse(ingest ?? '')).toMatchObject({ accepted: 1, rejected: 0 });
    expect(JSON.parse(read ?? '').logs[0]).toMatchObject({
      level: 'warning',
      message: 'disk 91% full',
    });
  });
});
