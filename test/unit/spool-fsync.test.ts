import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeSpoolFs, type SpoolFs } from '../../src/exporter/spool/spool-fs.js';
import { batch, spoolFixture } from '../reliability/helpers/spool-fixture.js';

const fixture = spoolFixture();
afterEach(() => fixture.cleanup());

function countingFs(): { fs: SpoolFs; fsyncs: () => number } {
  let fsyncs = 0;
  return {
    fs: {
      ...nodeSpoolFs,
      fsyncSync: (fd) => {
        fsyncs++;
        nodeSpoolFs.fsyncSync(fd);
      },
    },
    fsyncs: () => fsyncs,
  };
}

describe('disk spool: fsync', () => {
  it('never fsyncs on the append path, but on its timer and on close', async () => {
    const { fs, fsyncs } = countingFs();
    const spool = fixture.spool({ dir: fixture.tempDir(), fs, fsyncIntervalMillis: 20 });
    await spool.recover();
    for (let i = 0; i < 50; i++) spool.append(batch(`b${i}`));
    spool.remove(batch('unknown').id);
    expect(fsyncs()).toBe(0);
    await vi.waitFor(() => expect(fsyncs()).toBeGreaterThan(0));
    const afterTimer = fsyncs();
    spool.append(batch('last'));
    await spool.close();
    expect(fsyncs()).toBeGreaterThan(afterTimer);
  });

  it('syncs nothing while nothing was written', async () => {
    const { fs, fsyncs } = countingFs();
    const spool = fixture.spool({ dir: fixture.tempDir(), fs, fsyncIntervalMillis: 10 });
    await spool.recover();
    spool.append(batch('one'));
    await vi.waitFor(() => expect(fsyncs()).toBeGreaterThan(0));
    const settled = fsyncs();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(fsyncs()).toBe(settled);
  });
});
