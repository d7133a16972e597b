import { join } from 'node:path';
import { getContainerRuntimeClient } from 'testcontainers';
import { inject } from 'vitest';
import {
  ReslogReceiverContainer,
  type StartedReslogReceiverContainer,
  type StoredLog,
} from '../../../src/testing/index.js';

export const SEED_FILE = join(import.meta.dirname, '..', '..', '..', 'examples', 'seed.json');
export const CHECKOUT = '6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c';
export const BILLING = '0b7c5a2e-1d3f-4e6a-8b9c-0d1e2f3a4b5c';
export const ALICE_KEY = 'alice-dev-key-0000000001';

/** The image the global setup built, or null when the suite is skipped (no Docker). */
export const receiverImage = inject('receiverImage');

/** A receiver container from this run's image, seeded with examples/seed.json. */
export function receiverContainer(): ReslogReceiverContainer {
  if (!receiverImage) throw new Error('no receiver image: the suite should have been skipped');
  return new ReslogReceiverContainer(receiverImage).withSeed(SEED_FILE);
}

/** Every log of a resource, oldest first, through the read API's pages. */
export async function readAllLogs(
  receiver: StartedReslogReceiverContainer,
  username: string,
  uuid: string,
  apiKey: string,
): Promise<StoredLog[]> {
  const logs: StoredLog[] = [];
  let cursor: string | undefined;
  do {
    const page = await receiver.readLogs(username, uuid, apiKey, {
      order: 'asc',
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    logs.push(...page.logs);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return logs;
}

/** Counts of each value: a record that arrived twice shows up with 2. */
export function duplicates(values: readonly string[]): string[] {
  const seen = new Map<string, number>();
  for (const value of values) seen.set(value, (seen.get(value) ?? 0) + 1);
  return [...seen].filter(([, count]) => count > 1).map(([value]) => value);
}

export async function removeVolume(name: string): Promise<void> {
  const client = await getContainerRuntimeClient();
  await client.container.dockerode
    .getVolume(name)
    .remove({ force: true })
    .catch(() => undefined);
}
