import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userOwner } from '../../../src/config/owner.js';
import type { QueuedBatch } from '../../../src/exporter/queued-batch.js';
import { createDiskSpool, type DiskSpoolOptions } from '../../../src/exporter/spool/disk-spool.js';
import type { Spool } from '../../../src/exporter/spool/spool.js';

/** Temp directories and spools of one test file, removed and closed after each test. */
export function spoolFixture() {
  const dirs: string[] = [];
  const spools: Spool[] = [];
  return {
    tempDir(): string {
      const dir = mkdtempSync(join(tmpdir(), 'reslog-spool-'));
      dirs.push(dir);
      return dir;
    },
    spool(options: Partial<DiskSpoolOptions> & { dir: string }): Spool {
      const spool = createDiskSpool({ maxBytes: 64 * 1024 * 1024, ...options });
      spools.push(spool);
      return spool;
    },
    async cleanup(): Promise<void> {
      for (const spool of spools.splice(0)) await spool.close();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

let counter = 0;

export function batch(
  body: string | Buffer,
  overrides: Partial<QueuedBatch> & { targetKey?: string } = {},
): QueuedBatch {
  counter++;
  const uuid = '6f1d2c3b-8a4e-4f5a-9b6c-7d8e9f0a1b2c';
  const key = overrides.targetKey ?? `alice/${uuid}`;
  return {
    id: overrides.id ?? `batch-${counter}-${Math.random().toString(36).slice(2)}`,
    target: overrides.target ?? {
      key,
      owner: userOwner('alice'),
      uuid,
      path: `/u/alice/resources/${uuid}/logs/`,
    },
    body: typeof body === 'string' ? Buffer.from(body) : body,
    gzipped: overrides.gzipped ?? false,
    envelopeBytes: overrides.envelopeBytes ?? 10,
    sizes: overrides.sizes ?? [3, 4],
    enqueuedAt: overrides.enqueuedAt ?? 1_700_000_000_000 + counter,
  };
}

/** `batch` as `recover()` returns it. */
export function withoutBody(b: QueuedBatch): QueuedBatch {
  return { ...b, body: undefined };
}
