import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, runNode, startDemoReceiver, UUIDS } from './harness.js';

/** Configuration by environment only, as a deployment would do it. */
const env = (url: string, uuid: string, service: string) => ({
  RESLOG_BASE_URL: url,
  RESLOG_API_KEY: DEMO_KEY,
  RESLOG_USERNAME: 'demo',
  OTEL_RESOURCE_ATTRIBUTES: `service.name=${service},reslog.resource.uuid=${uuid}`,
  OTEL_TRACES_EXPORTER: 'none',
  OTEL_METRICS_EXPORTER: 'none',
});

describe('examples configured only through the environment', () => {
  let receiver: Awaited<ReturnType<typeof startDemoReceiver>>;
  beforeAll(async () => {
    receiver = await startDemoReceiver();
  });
  afterAll(async () => receiver?.close());

  it('node-sdk: NodeSDK logRecordProcessors ship to the resource in OTEL_RESOURCE_ATTRIBUTES', async () => {
    const uuid = UUIDS['checkout-api'];
    const { stdout } = await runNode(
      ['examples/node-sdk/index.ts'],
      env(receiver.url, uuid, 'checkout'),
    );

    expect(stdout).toContain('node-sdk: exported 3');
    const logs = await receiver.logs(uuid);
    expect(logs.map((l) => [l.level, l.message])).toEqual([
      ['info', 'order received'],
      ['info', 'order paid'],
      ['error', 'shipping label failed'],
    ]);
    expect(logs[0]?.resource).toMatchObject({ 'service.name': 'checkout' });
    expect(logs[0]?.resource).not.toHaveProperty('reslog.resource.uuid');
  });

  it('pino: a plain pino app through @opentelemetry/instrumentation-pino', async () => {
    const uuid = UUIDS['billing-worker'];
    const { stdout } = await runNode(
      ['--import', './examples/pino/instrumentation.ts', 'examples/pino/app.ts'],
      env(receiver.url, uuid, 'billing-worker'),
    );

    expect(stdout).toContain('pino: exported 3');
    const logs = await receiver.logs(uuid);
    expect(logs.map((l) => [l.level, l.message])).toEqual([
      ['info', 'order received'],
      ['warning', 'payment retry'],
      ['error', 'payment failed'],
    ]);
    expect(logs[2]?.extra.extra).toMatchObject({ orderId: 1042 });
  });
});

describe('examples/winston', () => {
  it('ships winston entries through @opentelemetry/winston-transport', async () => {
    const receiver = await startDemoReceiver();
    try {
      const uuid = UUIDS['billing-worker'];
      const { stdout } = await runNode(['examples/winston/index.ts'], {
        RESLOG_RESOURCE: `${receiver.url}/u/demo/resources/${uuid}/`,
        RESLOG_API_KEY: DEMO_KEY,
        SERVICE_NAME: 'invoicing',
      });

      expect(stdout).toContain('winston: exported 3');
      const logs = await receiver.logs(uuid);
      expect(logs.map((l) => [l.level, l.message])).toEqual([
        ['debug', 'cache warmed'],
        ['info', 'invoice created'],
        ['error', 'invoice email bounced'],
      ]);
      expect(logs[1]).toMatchObject({
        extra: expect.objectContaining({ extra: { invoiceId: 'inv-77', amount: 42.5 } }),
        resource: { 'service.name': 'invoicing' },
      });
    } finally {
      await receiver.close();
    }
  });
});
