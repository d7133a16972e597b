import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceLogExporter } from '../../src/index.js';
import type { FaultRuleInput, StartedReslogReceiverContainer } from '../../src/testing/index.js';
import {
  ALICE_KEY,
  CHECKOUT,
  duplicates,
  readAllLogs,
  receiverContainer,
  receiverImage,
} from './helpers/receiver.js';

describe.skipIf(!receiverImage)('retries through faults injected in the container', () => {
  let receiver: StartedReslogReceiverContainer;
  beforeAll(async () => {
    receiver = await receiverContainer().start();
  });
  afterAll(async () => receiver?.stop());

  it('delivers every record exactly once through 503, 429, resets and commit-then-reset', async () => {
    const match = { resource: CHECKOUT };
    // First matching rule wins and each fires `count` times, so they fire one after another.
    const rules: FaultRuleInput[] = [
      { match, count: 2, action: { status: 503, retryAfter: 1 } },
      { match, count: 2, action: { status: 429, retryAfter: 1 } },
      { match, count: 2, action: { reset: true } },
      { match, count: 2, action: { commitThenReset: true } },
    ];
    await receiver.setFaults(rules);

    const exporter = new ResourceLogExporter({
      resource: receiver.getResourceUrl('alice', CHECKOUT),
      apiKey: ALICE_KEY,
    });
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ 'service.name': 'checkout' }),
      processors: [
        new BatchLogRecordProcessor({ exporter, maxExportBatchSize: 25, scheduledDelayMillis: 20 }),
      ],
    });
    const logger = provider.getLogger('checkout.http');
    const sent = Array.from({ length: 250 }, (_, i) => `payment ${i}`);
    for (const message of sent) logger.emit({ body: message, severityNumber: 9 });
    await provider.forceFlush();
    await exporter.forceFlush();
    const stats = exporter.getStats();
    await provider.shutdown();

    const faults = await receiver.getFaults();
    expect(faults.map((fault) => fault.fired)).toEqual([2, 2, 2, 2]);
    const stored = (await readAllLogs(receiver, 'alice', CHECKOUT, ALICE_KEY)).map(
      (log) => log.message,
    );
    expect(duplicates(stored)).toEqual([]);
    expect(stored.sort()).toEqual([...sent].sort());
    expect(stats.retried).toBeGreaterThanOrEqual(8);
    expect(stats.exported).toBe(sent.length);

    // The batches committed before their connection dropped were answered from the
    // idempotency record on retry, not stored again.
    const journal = await receiver.getRequests(CHECKOUT);
    const committedThenDropped = journal.filter(
      (entry) => entry.fault?.action && 'commitThenReset' in entry.fault.action,
    );
    expect(committedThenDropped).toHaveLength(2);
    for (const dropped of committedThenDropped) {
      const retries = journal.filter(
        (entry) => entry.idempotency_key === dropped.idempotency_key && entry !== dropped,
      );
      expect(retries.some((entry) => entry.status === 202 && entry.replayed === true)).toBe(true);
    }
  });
});
