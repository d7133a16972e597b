import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_KEY, runNode, startDemoReceiver, UUIDS } from './harness.js';

describe('examples/basic', () => {
  let receiver: Awaited<ReturnType<typeof startDemoReceiver>>;
  afterEach(async () => receiver?.close());

  it('ships its three logs to the resource named by RESLOG_RESOURCE', async () => {
    receiver = await startDemoReceiver();
    const { stdout } = await runNode(['examples/basic/index.ts'], {
      RESLOG_RESOURCE: `${receiver.url}/u/demo/resources/${UUIDS['checkout-api']}/`,
      RESLOG_API_KEY: DEMO_KEY,
    });

    expect(stdout).toContain('basic: exported 3');
    const logs = await receiver.logs(UUIDS['checkout-api']);
    expect(logs.map((l) => [l.level, l.message])).toEqual([
      ['info', 'service started'],
      ['warning', 'cache miss rate high'],
      ['error', 'payment provider timed out'],
    ]);
    expect(logs[0]).toMatchObject({
      logger: 'example.basic',
      resource: { 'service.name': 'basic-example' },
    });
  });
});
