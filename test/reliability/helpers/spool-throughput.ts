/**
 * Quick throughput figures of the disk spool (docs/exporter.md, "Disk spool"):
 * `node test/reliability/helpers/spool-throughput.ts [bodyBytes] [count]`.
 * Appends `count` batches of `bodyBytes`, removes every other one, then recovers and reads
 * every survivor back, in a temp directory that is removed afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import './load-sources.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { createDiskSpool } = await import('../../../src/exporter/spool/disk-spool.js');
const bodyBytes = Number(process.argv[2] ?? 65_536);
const count = Number(process.argv[3] ?? 5000);
const dir = mkdtempSync(join(tmpdir(), 'reslog-spool-bench-'));
const target = {
  key: 'alice/x',
  owner: { kind: 'user' as const, name: 'alice' },
  uuid: 'x',
  path: '/u/alice/resources/x/logs/',
};
const body = Buffer.alloc(bodyBytes, 7);
const sizes = Array.from({ length: 100 }, () => bodyBytes / 100);
const report = (what: string, n: number, bytes: number, nanos: bigint) => {
  const seconds = Number(nanos) / 1e9;
  console.log(
    `${what}: ${n} batches in ${(seconds * 1000).toFixed(0)} ms, ${((seconds / n) * 1e6).toFixed(1)} µs each, ` +
      `${Math.round(n / seconds)} batches/s, ${(bytes / seconds / 1e6).toFixed(0)} MB/s`,
  );
};

try {
  const spool = createDiskSpool({ dir, maxBytes: 64 * 1024 ** 3 });
  await spool.recover();
  let frameBytes = 0;
  let started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const result = spool.append({
      id: `b-${i}`,
      target,
      body,
      gzipped: true,
      envelopeBytes: 40,
      sizes,
      enqueuedAt: Date.now(),
    });
    if (!result.ok) throw result.error;
    frameBytes += result.bytes;
  }
  report('append', count, frameBytes, process.hrtime.bigint() - started);
  started = process.hrtime.bigint();
  for (let i = 0; i < count; i += 2) spool.remove(`b-${i}`);
  report('remove', Math.ceil(count / 2), 0, process.hrtime.bigint() - started);
  started = process.hrtime.bigint();
  await spool.close();
  console.log(`close (fsync): ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(0)} ms`);

  const again = createDiskSpool({ dir, maxBytes: 64 * 1024 ** 3 });
  started = process.hrtime.bigint();
  const recovered = await again.recover();
  report('recover', recovered.length, frameBytes, process.hrtime.bigint() - started);
  started = process.hrtime.bigint();
  let read = 0;
  for (const batch of recovered) read += again.read(batch.id)?.length ?? 0;
  report('read', recovered.length, read, process.hrtime.bigint() - started);
  await again.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
