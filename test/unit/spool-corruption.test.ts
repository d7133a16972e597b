import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueuedBatch } from '../../src/exporter/queued-batch.js';
import { batchMeta, encodeBatchFrame } from '../../src/exporter/spool/segment-format.js';
import { batch, spoolFixture } from '../reliability/helpers/spool-fixture.js';

const fixture = spoolFixture();
afterEach(() => fixture.cleanup());

/** The one segment a spool wrote for `batches`. */
async function segmentOf(batches: readonly QueuedBatch[]): Promise<Buffer> {
  const dir = fixture.tempDir();
  const spool = fixture.spool({ dir });
  await spool.recover();
  for (const b of batches) expect(spool.append(b).ok).toBe(true);
  await spool.close();
  const [writer] = readdirSync(dir);
  return readFileSync(join(dir, writer as string, 'seg-00000001.log'));
}

/** Recovers a fresh spool dir holding `segment` as a dead writer's only segment. */
async function recoverSegment(segment: Buffer) {
  const dir = fixture.tempDir();
  mkdirSync(join(dir, 'w-dead'));
  writeFileSync(join(dir, 'w-dead', 'seg-00000001.log'), segment);
  const spool = fixture.spool({ dir });
  const recovered = await spool.recover();
  const read = new Map(recovered.map((b) => [b.id, spool.read(b.id)?.toString()]));
  return { recovered, read, corruptFrames: spool.stats().corruptFrames };
}

const batches = Array.from({ length: 4 }, (_, i) => batch(`record ${i};`.repeat(5 * (i + 1))));
const frameSizes = batches.map((b) => encodeBatchFrame(batchMeta(b), b.body as Buffer).length);

describe('disk spool: torn and corrupt segments', () => {
  it('recovers the intact batches of a segment cut at every byte of its last frame', async () => {
    const segment = await segmentOf(batches);
    const lastStart = segment.length - (frameSizes[3] as number);
    for (let cut = lastStart; cut < segment.length; cut++) {
      const { recovered, read, corruptFrames } = await recoverSegment(segment.subarray(0, cut));
      expect(recovered.map((b) => b.id)).toEqual(batches.slice(0, 3).map((b) => b.id));
      expect([...read.values()]).toEqual(batches.slice(0, 3).map((b) => b.body?.toString()));
      expect(corruptFrames).toBe(cut === lastStart ? 0 : 1);
    }
  });

  it('skips a frame whose payload was damaged and reads on after it', async () => {
    const segment = Buffer.from(await segmentOf(batches));
    const secondBody = (frameSizes[0] as number) + (frameSizes[1] as number) - 3;
    segment[secondBody] = (segment[secondBody] as number) ^ 0x01;
    const { recovered, corruptFrames } = await recoverSegment(segment);
    expect(recovered.map((b) => b.id)).toEqual([0, 2, 3].map((i) => batches[i]?.id));
    expect(corruptFrames).toBe(1);
  });

  it('stops at a frame whose length field is implausible', async () => {
    const segment = Buffer.from(await segmentOf(batches));
    segment.writeUInt32BE(0xfff_ffff, (frameSizes[0] as number) + 4);
    const { recovered, corruptFrames } = await recoverSegment(segment);
    expect(recovered.map((b) => b.id)).toEqual([batches[0]?.id]);
    expect(corruptFrames).toBe(1);
  });

  it('returns only intact batches, never throwing, whatever bytes are flipped', async () => {
    const segment = await segmentOf(batches);
    const bodies = new Map(batches.map((b) => [b.id, b.body?.toString()]));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.nat(segment.length - 1), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 255 }),
        async (positions, mask) => {
          const damaged = Buffer.from(segment);
          for (const p of positions) damaged[p] = (damaged[p] as number) ^ mask;
          const { recovered, read, corruptFrames } = await recoverSegment(damaged);
          for (const b of recovered) {
            expect(read.get(b.id)).toBe(bodies.get(b.id));
            expect(b).toEqual({ ...batches.find((x) => x.id === b.id), body: undefined });
          }
          expect(corruptFrames).toBeGreaterThanOrEqual(1);
          expect(recovered.length).toBeLessThan(batches.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads back undefined when a body was damaged on disk after recovery', async () => {
    const dir = fixture.tempDir();
    const spool = fixture.spool({ dir });
    await spool.recover();
    const b = batch('to be damaged');
    spool.append(b);
    await spool.close();
    const again = fixture.spool({ dir });
    const [recovered] = await again.recover();
    const file = (readdirSync(dir, { recursive: true }) as string[]).find((f) =>
      f.endsWith('.log'),
    );
    const path = join(dir, file as string);
    const bytes = readFileSync(path);
    bytes[bytes.length - 2] = (bytes[bytes.length - 2] as number) ^ 0xff;
    writeFileSync(path, bytes);
    expect(again.read(recovered?.id as string)).toBeUndefined();
    expect(again.stats().corruptFrames).toBe(1);
  });
});
