import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ResourceLogExporter } from '../../src/index.js';
import type { StartedReslogReceiverContainer } from '../../src/testing/index.js';
import { startTcpProxy, type TcpProxy } from '../harness/tcp-proxy.ts';
import { exportOnce, logRecord, resource } from '../helpers/records.js';
import {
  ALICE_KEY,
  CHECKOUT,
  duplicates,
  readAllLogs,
  receiverContainer,
  receiverImage,
  removeVolume,
} from './helpers/receiver.js';

const SUCCESS = 0;

describe.skipIf(!receiverImage)('the receiver container restarted mid-stream', () => {
  const volume = `reslog-it-${randomUUID().slice(0, 8)}`;
  const containers: StartedReslogReceiverContainer[] = [];
  let forwarder: TcpProxy | undefined;
  afterAll(async () => {
    await forwarder?.close();
    for (const container of containers) await container.stop();
    await removeVolume(volume);
  });

  it('keeps every acknowledged record, once, across a kill and in a new container', async () => {
    const receiver = await receiverContainer().withDatabaseVolume(volume).start();
    containers.push(receiver);
    // The host port mapping changes on restart; the exporter keeps one URL in front of it.
    forwarder = await startTcpProxy({
      upstreamHost: receiver.getHost(),
      upstreamPort: receiver.getMappedPort(8765),
    });
    const exporter = new ResourceLogExporter({
      baseUrl: forwarder.url,
      apiKey: ALICE_KEY,
      username: 'alice',
      resource: CHECKOUT,
      // Keep each attempt short so an attempt on a dead connection gives way to a retry.
      timeoutMillis: 2_000,
    });

    const batches = 30;
    const perBatch = 20;
    const acknowledged: string[] = [];
    let restarted: Promise<void> | undefined;
    for (let b = 0; b < batches; b++) {
      if (b === 10) {
        // restart() kills the container (SIGKILL, no grace) while this batch is in flight.
        restarted = receiver.restart().then(() => {
          forwarder?.setUpstream(receiver.getMappedPort(8765), receiver.getHost());
        });
      }
      const messages = Array.from({ length: perBatch }, (_, i) => `batch ${b} record ${i}`);
      const result = await exportOnce(
        exporter,
        messages.map((body) => logRecord({ body, resource: resource({ 'service.name': 'x' }) })),
      );
      if (result.code === SUCCESS) acknowledged.push(...messages);
    }
    await restarted;
    const stats = exporter.getStats();
    await exporter.shutdown();

    // The kill was felt (some attempt failed and was retried), and ridden through.
    expect(stats.retried).toBeGreaterThanOrEqual(1);

    // The exporter rode through the restart: every batch was acknowledged in the end.
    expect(acknowledged).toHaveLength(batches * perBatch);
    const afterRestart = (await readAllLogs(receiver, 'alice', CHECKOUT, ALICE_KEY)).map(
      (log) => log.message,
    );
    expect(duplicates(afterRestart)).toEqual([]);
    expect(afterRestart.sort()).toEqual([...acknowledged].sort());

    // A new container on the same volume serves the same records.
    await receiver.stop();
    containers.splice(0);
    const successor = await receiverContainer().withDatabaseVolume(volume).start();
    containers.push(successor);
    const inSuccessor = (await readAllLogs(successor, 'alice', CHECKOUT, ALICE_KEY)).map(
      (log) => log.message,
    );
    expect(inSuccessor.sort()).toEqual(afterRestart);
  });
});
