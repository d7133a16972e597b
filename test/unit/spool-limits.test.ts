import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nodeSpoolFs, type SpoolFs } from '../../src/exporter/spool/spool-fs.js';
import { batch, spoolFixture, withoutBody } from '../reliability/helpers/spool-fixture.js';

const fixture = spoolFixture();
afterEach(() => fixture.cleanup());

function enospc(): Error {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}

/** The real file system, with a device that holds `budget` more bytes of segment writes. */
function deviceOf(budget: { bytes: number }, overrides: Partial<SpoolFs> = {}): SpoolFs {
  return {
    ...nodeSpoolFs,
    writeSync(fd, buffer, offset, length, position) {
      if (budget.bytes <= 0) throw enospc();
      const wrote = nodeSpoolFs.writeSync(
        fd,
        buffer,
        offset,
        Math.min(length, budget.bytes),
        position,
      );
      budget.bytes -= wrote;
      return wrote;
    },
    ...overrides,
  };
}

describe('disk spool: maxBytes', () => {
  it('evicts the oldest batches to make room, and they are not replayed', async () => {
    const dir = fixture.tempDir();
    const spool = fixture.spool({ dir, maxBytes: 3500 });
    await spool.recover();
    const batches = Array.from({ length: 5 }, (_, i) => batch(String(i).repeat(700)));
    const results = batches.map((b) => spool.append(b));
    expect(results.map((r) => r.ok && r.evicted)).toEqual([
      [],
      [],
      [],
      [batches[0]?.id],
      [batches[1]?.id],
    ]);
    expect(spool.stats().bytes).toBeLessThanOrEqual(3500);
    expect(spool.stats().bytes).toBe(
      results.slice(2).reduce((sum, r) => sum + (r.ok ? r.bytes : 0), 0),
    );
    await spool.close();
    const again = fixture.spool({ dir, maxBytes: 3500 });
    expect(await again.recover()).toEqual(batches.slice(2).map(withoutBody));
  });

  it('refuses a batch larger than maxBytes by itself, evicting nothing', async () => {
    const spool = fixture.spool({ dir: fixture.tempDir(), maxBytes: 2000 });
    await spool.recover();
    const small = batch('small');
    spool.append(small);
    const result = spool.append(batch('x'.repeat(2000)));
    expect(result).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/exceeds maxBytes 2000/) },
    });
    expect(spool.read(small.id)?.toString()).toBe('small');
  });
});

describe('disk spool: failing directories and disks', () => {
  it('degrades when the directory cannot be created: recover() gives [] and says so once', async () => {
    const parent = fixture.tempDir();
    writeFileSync(join(parent, 'a-file'), '');
    const messages: string[] = [];
    const spool = fixture.spool({
      dir: join(parent, 'a-file', 'spool'),
      onDiagnostic: (m) => messages.push(m),
    });
    expect(await spool.recover()).toEqual([]);
    const results = [spool.append(batch('a')), spool.append(batch('b'))];
    expect(results.map((r) => r.ok)).toEqual([false, false]);
    expect(spool.stats().writeErrors).toBe(2);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/ENOTDIR/);
    spool.remove('a');
    expect(spool.read('a')).toBeUndefined();
    await spool.close();
  });

  it('refuses an append the disk has no room for, and no half-written frame ever recovers', async () => {
    const dir = fixture.tempDir();
    const budget = { bytes: Number.POSITIVE_INFINITY };
    const messages: string[] = [];
    const spool = fixture.spool({
      dir,
      fs: deviceOf(budget),
      onDiagnostic: (m) => messages.push(m),
    });
    await spool.recover();
    const kept = [batch('first'), batch('second')];
    for (const b of kept) expect(spool.append(b).ok).toBe(true);
    budget.bytes = 100; // the next frame is written in part, then the disk is full
    const failed = spool.append(batch('y'.repeat(500)));
    expect(failed).toMatchObject({ ok: false, error: { code: 'ENOSPC' } });
    expect(spool.stats().writeErrors).toBe(1);
    expect(messages.join()).toMatch(/ENOSPC/);
    budget.bytes = Number.POSITIVE_INFINITY;
    const after = batch('after the disk had room again');
    expect(spool.append(after).ok).toBe(true);
    await spool.close();
    const again = fixture.spool({ dir });
    expect(await again.recover()).toEqual([...kept, after].map(withoutBody));
    expect(again.stats().corruptFrames).toBe(0);
  });

  it('leaves a torn frame to the checksum and moves on to a new segment when it cannot cut it off', async () => {
    const dir = fixture.tempDir();
    const budget = { bytes: Number.POSITIVE_INFINITY };
    const fs = deviceOf(budget, {
      ftruncateSync: () => {
        throw enospc();
      },
    });
    const spool = fixture.spool({ dir, fs });
    await spool.recover();
    const kept = batch('kept');
    spool.append(kept);
    budget.bytes = 60;
    expect(spool.append(batch('z'.repeat(500))).ok).toBe(false);
    budget.bytes = Number.POSITIVE_INFINITY;
    const after = batch('after');
    expect(spool.append(after).ok).toBe(true);
    await spool.close();
    const again = fixture.spool({ dir });
    expect(await again.recover()).toEqual([kept, after].map(withoutBody));
    expect(again.stats()).toMatchObject({ corruptFrames: 1, adoptedSegments: 2 });
  });
});

/** A real 64 KiB tmpfs, when this machine lets the tests mount one (root); skipped otherwise. */
const tiny = { dir: '', mounted: false };
beforeAll(() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return;
  tiny.dir = mkdtempSync(join(tmpdir(), 'reslog-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', tiny.dir], {
      stdio: 'ignore',
    });
    tiny.mounted = true;
  } catch {
    rmdirSync(tiny.dir);
  }
});
afterAll(() => {
  if (!tiny.mounted) return;
  execFileSync('umount', [tiny.dir]);
  rmdirSync(tiny.dir);
});

describe('disk spool: a full device', () => {
  it.skipIf(process.platform !== 'linux' || process.getuid?.() !== 0)(
    'refuses appends once a 64 KiB tmpfs is full and recovers every acknowledged batch',
    async (context) => {
      if (!tiny.mounted) context.skip();
      const spool = fixture.spool({ dir: join(tiny.dir, 'spool') });
      await spool.recover();
      const acknowledged = [];
      let refused = 0;
      for (let i = 0; i < 40; i++) {
        const b = batch(`${i}:`.padEnd(3000, 'x'));
        const result = spool.append(b);
        if (result.ok) acknowledged.push(b);
        else refused++;
      }
      expect(refused).toBeGreaterThan(0);
      expect(spool.stats().writeErrors).toBe(refused);
      await spool.close();
      const again = fixture.spool({ dir: join(tiny.dir, 'spool') });
      const recovered = await again.recover();
      expect(recovered).toEqual(acknowledged.map(withoutBody));
      for (const b of acknowledged) expect(again.read(b.id)).toEqual(b.body);
      await again.close();
    },
  );
});
