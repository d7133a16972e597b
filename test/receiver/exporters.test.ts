import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResourceLogExporter } from '../../src/index.js';
import { admin, BILLING, CHECKOUT, KEYS, receiver } from './fixtures.js';

describe('real exporters against a listening receiver', () => {
  let app: FastifyInstance;
  let url: string;
  beforeEach(async () => {
    app = receiver();
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(() => app.close());

  const wait = (uuid: string, min: number) =>
    fetch(`${url}/_receiver/logs/wait?resource=${uuid}&min=${min}&timeout=10000`, {
      headers: admin,
    }).then((r) => r.json() as Promise<{ satisfied: boolean }>);

  const read = async (uuid: string) => {
    const response = await fetch(`${url}/u/alice/resources/${uuid}/logs/?order=asc&limit=1000`, {
      headers: { 'x-api-key': KEYS.alice },
    });
    return ((await response.json()) as { logs: Record<string, unknown>[] }).logs;
  };

  it('ResourceLogExporter → receiver → read API, for two resources', async () => {
    const providers = ['checkout', 'billing'].map((service) => {
      const exporter = new ResourceLogExporter({
        baseUrl: url,
        apiKey: KEYS.alice,
        username: 'alice',
        routes: [
          { match: { 'service.name': 'checkout' }, key: 'checkout-api' },
          { match: { 'service.name': 'billing' }, resource: BILLING },
        ],
      });
      return new LoggerProvider({
        resource: resourceFromAttributes({ 'service.name': service, 'host.name': 'web-1' }),
        processors: [new BatchLogRecordProcessor({ exporter, scheduledDelayMillis: 20 })],
      });
    });
    const perService = 150;
    providers.forEach((provider, p) => {
      const logger = provider.getLogger('app.http', '1.0.0');
      for (let i = 0; i < perService; i++) {
        logger.emit({
          severityNumber: 17,
          severityText: 'ERROR',
          body: p === 0 && i === 0 ? { structured: true, n: Number.NaN } : `message ${p}-${i}`,
          attributes: { i, 'http.route': '/pay' },
          timestamp: [1_795_000_000, 123_456_789 + i],
        });
      }
    });
    await Promise.all(providers.map((provider) => provider.shutdown()));
    expect((await wait(CHECKOUT, perService)).satisfied).toBe(true);
    expect((await wait(BILLING, perService)).satisfied).toBe(true);

    const checkout = await read(CHECKOUT);
    const billing = await read(BILLING);
    expect(checkout).toHaveLength(perService);
    expect(billing.map((l) => l.message)).toEqual(
      Array.from({ length: perService }, (_, i) => `message 1-${i}`),
    );
    expect(checkout[1]).toMatchObject({
      ts: '2026-11-18T11:06:40.123456790Z',
      level: 'error',
      severity_number: 17,
      logger: 'app.http',
      extra: expect.objectContaining({ logger: 'app.http', extra: { i: 1, 'http.route': '/pay' } }),
      resource: { 'service.name': 'checkout', 'host.name': 'web-1' },
      sdk: 'reslog',
    });
    expect(checkout[0]?.body).toEqual({ structured: true, n: 'NaN' });
    // The by-key route resolved checkout-api; the journal never shows the key.
    const journal = await fetch(`${url}/_receiver/requests`, { headers: admin }).then((r) =>
      r.text(),
    );
    expect(journal).toContain('/resources/by-key/checkout-api');
    expect(journal).not.toContain(KEYS.alice);
  });

  it('stock OTLPLogExporter (OTLP/HTTP JSON) stores records in the same shape', async () => {
    const exporter = new OTLPLogExporter({
      url: `${url}/u/alice/resources/${CHECKOUT}/v1/logs`,
      headers: { 'x-api-key': KEYS.bob },
    });
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ 'service.name': 'checkout' }),
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    const logger = provider.getLogger('otel.scope', '2.0.0');
    logger.emit({
      severityNumber: 13,
      body: 'via otlp',
      attributes: { nested: { a: [1, 'two'] }, ok: true },
      timestamp: [1_795_000_000, 987_654_321],
    });
    logger.emit({ severityNumber: 9, body: { kind: 'structured' } });
    await provider.forceFlush();
    await provider.shutdown();
    expect((await wait(CHECKOUT, 2)).satisfied).toBe(true);
    const [first, second] = await read(CHECKOUT);
    expect(first).toMatchObject({
      ts: '2026-11-18T11:06:40.987654321Z',
      level: 'warning',
      severity_number: 13,
      message: 'via otlp',
      logger: 'otel.scope',
      attributes: { nested: { a: [1, 'two'] }, ok: true },
    });
    expect(first?.resource).toMatchObject({ 'service.name': 'checkout' });
    expect(first?.sdk).toMatch(/^otlp/);
    expect(second).toMatchObject({ level: 'info', body: { kind: 'structured' } });

    const viewer = await fetch(`${url}/u/alice/resources/${CHECKOUT}/v1/logs`, {
      method: 'POST',
      headers: { 'x-api-key': KEYS.carol, 'content-type': 'application/json' },
      body: '{"resourceLogs":[]}',
    });
    expect(viewer.status).toBe(403);
    const protobuf = await fetch(`${url}/u/alice/resources/${CHECKOUT}/v1/logs`, {
      method: 'POST',
      headers: { 'x-api-key': KEYS.alice, 'content-type': 'application/x-protobuf' },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(protobuf.status).toBe(415);
    expect(await protobuf.text()).toContain('protobuf is not supported');
    const ok = await fetch(`${url}/u/alice/resources/${CHECKOUT}/v1/logs`, {
      method: 'POST',
      headers: { 'x-api-key': KEYS.alice, 'content-type': 'application/json' },
      body: '{"resourceLogs":[]}',
    });
    expect(await ok.json()).toEqual({});
  });

  it('reset and commitThenReset faults drop the connection; commitThenReset still stores', async () => {
    const ingest = () =>
      fetch(`${url}/u/alice/resources/${CHECKOUT}/logs/`, {
        method: 'POST',
        headers: { 'x-api-key': KEYS.alice, 'content-type': 'application/json' },
        body: '{"message":"committed"}',
      });
    const addFault = (action: unknown) =>
      fetch(`${url}/_receiver/faults`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ count: 1, action }),
      });
    await addFault({ reset: true });
    await expect(ingest()).rejects.toThrow();
    expect(await read(CHECKOUT)).toEqual([]);
    await addFault({ commitThenReset: true });
    await expect(ingest()).rejects.toThrow();
    expect((await read(CHECKOUT)).map((l) => l.message)).toEqual(['committed']);
    const journal = (await fetch(`${url}/_receiver/requests`, { headers: admin }).then((r) =>
      r.json(),
    )) as { requests: { status: number | null; fault: { action: unknown } | null }[] };
    const faulted = journal.requests.filter((r) => r.fault !== null);
    expect(faulted.map((r) => [r.status, r.fault?.action])).toEqual([
      [null, { reset: true }],
      [null, { commitThenReset: true }],
    ]);
  });
});
