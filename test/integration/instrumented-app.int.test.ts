import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceLogExporter } from '../../src/index.js';
import type { StartedReslogReceiverContainer } from '../../src/testing/index.js';
import { readAllLogs, receiverContainer, receiverImage } from './helpers/receiver.js';

describe.skipIf(!receiverImage)('an instrumented app shipping to the receiver container', () => {
  let receiver: StartedReslogReceiverContainer;
  beforeAll(async () => {
    receiver = await receiverContainer().start();
  });
  afterAll(async () => receiver?.stop());

  it('routes two services to two resources, by service.name and by resource key', async () => {
    const { apiKey } = await receiver.createAccount('dana');
    const checkout = await receiver.createResource({ owner: 'dana', key: 'checkout-api' });
    const billing = await receiver.createResource({ owner: 'dana', key: 'billing-worker' });

    const services = [
      // Routed by a rule on service.name to a UUID.
      { 'service.name': 'checkout', 'host.name': 'web-1' },
      // Routed by its resource key, which the exporter looks up on the receiver.
      { 'service.name': 'billing', 'reslog.resource.key': 'billing-worker' },
    ];
    const providers = services.map(
      (attributes) =>
        new LoggerProvider({
          resource: resourceFromAttributes(attributes),
          processors: [
            new BatchLogRecordProcessor({
              exporter: new ResourceLogExporter({
                baseUrl: receiver.getBaseUrl(),
                apiKey,
                username: 'dana',
                routes: [{ match: { 'service.name': 'checkout' }, resource: checkout.uuid }],
              }),
              maxExportBatchSize: 50,
              scheduledDelayMillis: 20,
            }),
          ],
        }),
    );
    const perService = 150;
    providers.forEach((provider, p) => {
      const logger = provider.getLogger('app.http', '1.0.0');
      for (let i = 0; i < perService; i++) {
        logger.emit({
          severityNumber: i % 10 === 0 ? 17 : 9,
          body: `${services[p]?.['service.name']} ${i}`,
          attributes: { i },
        });
      }
    });
    await Promise.all(providers.map((provider) => provider.shutdown()));

    const expected = (service: string) =>
      Array.from({ length: perService }, (_, i) => `${service} ${i}`).sort();
    const checkoutLogs = await readAllLogs(receiver, 'dana', checkout.uuid, apiKey);
    const billingLogs = await readAllLogs(receiver, 'dana', billing.uuid, apiKey);
    expect(checkoutLogs.map((log) => log.message).sort()).toEqual(expected('checkout'));
    expect(billingLogs.map((log) => log.message).sort()).toEqual(expected('billing'));
    expect(new Set(checkoutLogs.map((log) => log.resource['service.name']))).toEqual(
      new Set(['checkout']),
    );
    expect(new Set(billingLogs.map((log) => log.resource['service.name']))).toEqual(
      new Set(['billing']),
    );
    const errors = checkoutLogs.filter((log) => log.level === 'error');
    expect(errors.map((log) => (log.extra as { extra: { i: number } }).extra.i)).toEqual(
      Array.from({ length: perService / 10 }, (_, i) => i * 10),
    );
    // The key was resolved through the receiver's lookup, with dana's key.
    const lookups = (await receiver.getRequests()).filter(
      (entry) => entry.method === 'GET' && entry.path.includes('/by-key/billing-worker'),
    );
    expect(lookups.length).toBeGreaterThanOrEqual(1);
    expect(lookups.every((entry) => entry.status === 200)).toBe(true);
  });
});
