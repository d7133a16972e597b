import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, runNode, startDemoReceiver, UUIDS } from './harness.js';

describe('examples/routing and examples/http-server', () => {
  let receiver: Awaited<ReturnType<typeof startDemoReceiver>>;
  beforeAll(async () => {
    receiver = await startDemoReceiver();
  });
  afterAll(async () => receiver?.close());

  it('routing: one config sends each service to its resource; the unrouted one is counted', async () => {
    const { stdout } = await runNode(['examples/routing/index.ts'], {
      RESLOG_BASE_URL: receiver.url,
      RESLOG_API_KEY: DEMO_KEY,
      RESLOG_USERNAME: 'demo',
    });

    expect(stdout).toContain('routing: exported 3, unmapped 1');
    const messages = async (key: keyof typeof UUIDS) =>
      (await receiver.logs(UUIDS[key])).map((l) => l.message);
    expect(await messages('checkout-api')).toEqual(['hello from checkout']);
    expect(await messages('billing-worker')).toEqual(['hello from billing-worker-2']);
    expect(await messages('edge-host')).toEqual(['hello from nginx']);
  });

  it('http-server: request logs carry the trace context of their request span', async () => {
    const uuid = UUIDS['edge-host'];
    const { stdout } = await runNode(['examples/http-server/index.ts'], {
      RESLOG_BASE_URL: receiver.url,
      RESLOG_API_KEY: DEMO_KEY,
      RESLOG_USERNAME: 'demo',
      OTEL_RESOURCE_ATTRIBUTES: `service.name=edge-api,reslog.resource.uuid=${uuid}`,
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_METRICS_EXPORTER: 'none',
    });

    expect(stdout).toContain('http-server: exported 4');
    const traces = [...stdout.matchAll(/trace ([0-9a-f]{32})/g)].map((m) => m[1]);
    expect(traces).toHaveLength(2);
    const logs = (await receiver.logs(uuid)).filter(
      (l) => l.resource['service.name'] === 'edge-api',
    );
    expect(logs.map((l) => [l.message, l.trace_id])).toEqual([
      ['request received', traces[0]],
      ['request served', traces[0]],
      ['request received', traces[1]],
      ['request failed', traces[1]],
    ]);
    expect(logs.every((l) => /^[0-9a-f]{16}$/.test(l.span_id))).toBe(true);
    expect(logs[3]?.level).toBe('error');
  });
});
