import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { children } from '../test/harness/child-process.ts';
import { type ReceiverProcess, startReceiverProcess } from '../test/harness/receiver-process.ts';
import { receiverCli } from './package-under-test.ts';
import { BENCH_RESOURCE_UUID, BENCH_SEED } from './records.ts';

export const ADMIN_TOKEN = 'bench-admin-token';

/** A scratch directory with the bench seed, holding the receiver's file database. */
export interface ReceiverFiles {
  dir: string;
  db: string;
  seed: string;
  remove(): void;
}

export function receiverFiles(): ReceiverFiles {
  const dir = mkdtempSync(join(tmpdir(), 'reslog-bench-'));
  const seed = join(dir, 'seed.json');
  writeFileSync(seed, JSON.stringify(BENCH_SEED));
  return {
    dir,
    db: join(dir, 'receiver.db'),
    seed,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The receiver CLI (of this run's dist/ snapshot, on this process's Node) on port 0 with a
 * file database, logging off, and the per-key rate limit raised far above what the bench sends
 * (the default, 100 requests/s with a burst of 200, would measure the limiter instead of
 * ingest). Killed with the bench's other children.
 */
export function startReceiver(
  files: ReceiverFiles,
  nodeArgs: readonly string[] = [],
): Promise<ReceiverProcess> {
  return startReceiverProcess(
    [
      '--db',
      files.db,
      '--seed',
      files.seed,
      '--log-level',
      'silent',
      '--rate-limit',
      '1000000',
      '--rate-burst',
      '1000000',
    ],
    {
      adminToken: ADMIN_TOKEN,
      nodeArgs,
      node: process.execPath,
      cli: receiverCli(),
      readyTimeoutMillis: 30_000,
      group: children,
    },
  );
}

/** How many records the receiver has stored for the bench resource. */
export async function storedRecords(url: string): Promise<number> {
  const response = await fetch(
    `${url}/_receiver/logs/wait?resource=${BENCH_RESOURCE_UUID}&min=0&timeout=0`,
    { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
  );
  if (!response.ok) throw new Error(`receiver count: HTTP ${response.status}`);
  return ((await response.json()) as { count: number }).count;
}
