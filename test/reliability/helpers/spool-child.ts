/**
 * A process that appends batches to a disk spool in a loop until it is killed, for
 * test/reliability/spool-sigkill.test.ts. Run with Node's type stripping:
 * `node spool-child.ts <dir>`. Prints one line per fact the test may rely on, each after the
 * call that made it true returned: `recovered <id>` (at start), `ack <id>`, `removing <id>`
 * (before `remove()`), `removed <id>` (after it).
 */
import { writeSync } from 'node:fs';
import './load-sources.ts';

const { createDiskSpool } = await import('../../../src/exporter/spool/disk-spool.js');
const dir = process.argv[2] as string;
const spool = createDiskSpool({ dir, maxBytes: 1024 * 1024 * 1024, segmentBytes: 64 * 1024 });
/**
 * Written straight to fd 1: `process.stdout` on a pipe may buffer, and a line still in a buffer
 * at SIGKILL would be lost, so the test would not know an id was acknowledged or removed.
 */
const out = (line: string) => {
  const bytes = Buffer.from(`${line}\n`);
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(1, bytes, done);
    } catch (error) {
      if ((error as { code?: string }).code !== 'EAGAIN') throw error;
    }
  }
};

const live: string[] = [];
for (const batch of await spool.recover()) {
  live.push(batch.id);
  out(`recovered ${batch.id}`);
}
out('ready');
const target = {
  key: 'alice/x',
  owner: { kind: 'user' as const, name: 'alice' },
  uuid: 'x',
  path: '/u/alice/resources/x/logs/',
};
let n = 0;
const tick = () => {
  for (let i = 0; i < 20; i++) {
    n++;
    const id = `${process.pid}-${n}`;
    const body = Buffer.alloc(200 + ((n * 7919) % 3000), n % 251);
    const result = spool.append({
      id,
      target,
      body,
      gzipped: false,
      envelopeBytes: 9,
      sizes: [body.length],
      enqueuedAt: Date.now(),
    });
    if (!result.ok) throw result.error;
    out(`ack ${id}`);
    live.push(id);
    if (n % 3 === 0) {
      const victim = live.splice((n * 31) % live.length, 1)[0] as string;
      out(`removing ${victim}`);
      spool.remove(victim);
      out(`removed ${victim}`);
    }
  }
  setImmediate(tick);
};
tick();
