import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { batch, spoolFixture, withoutBody } from '../reliability/helpers/spool-fixture.js';

const fixture = spoolFixture();
afterEach(() => fixture.cleanup());

function segmentFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.log'));
}

describe('disk spool: append and recover', () => {
  it('gives back, after a restart, every batch appended and not removed, oldest first', async () => {
    const dir = fixture.tempDir();
    const first = fixture.spool({ dir });
    expect(await first.recover()).toEqual([]);
    const late = batch('{"logs":[late]}', { enqueuedAt: 2000 });
    const early = batch(Buffer.from([0, 1, 2, 255]), { enqueuedAt: 1000, gzipped: true });
    const tie = batch('tie', { enqueuedAt: 2000, targetKey: 'team/devops/x' });
    for (const b of [late, early, tie])
      expect(first.append(b)).toMatchObject({ ok: true, evicted: [] });
    await first.close();

    const second = fixture.spool({ dir });
    const recovered = await second.recover();
    expect(recovered).toEqual([withoutBody(early), withoutBody(late), withoutBody(tie)]);
    expect(second.read(early.id)).toEqual(early.body);
    expect(second.read(late.id)?.toString()).toBe('{"logs":[late]}');
    expect(second.stats()).toMatchObject({ corruptFrames: 0, adoptedSegments: 1 });
    expect([...second.stats().bytesByTarget.keys()].sort()).toEqual([
      late.target.key,
      'team/devops/x',
    ]);
  });

  it('reads a body back while the segment is still being written', async () => {
    const spool = fixture.spool({ dir: fixture.tempDir() });
    await spool.recover();
    const b = batch('x'.repeat(70_000));
    const appended = spool.append(b);
    expect(appended.ok && appended.bytes).toBeGreaterThan(70_000);
    expect(spool.read(b.id)).toEqual(b.body);
    expect(spool.read('unknown')).toBeUndefined();
    expect(spool.stats().bytes).toBe(appended.ok ? appended.bytes : -1);
  });

  it('never replays a removed batch, also when it was recovered from an earlier process', async () => {
    const dir = fixture.tempDir();
    const first = fixture.spool({ dir });
    await first.recover();
    const [a, b, c] = [batch('a'), batch('b'), batch('c')];
    for (const x of [a, b, c]) first.append(x);
    first.remove(a.id);
    await first.close();

    const second = fixture.spool({ dir });
    expect((await second.recover()).map((x) => x.id)).toEqual([b.id, c.id]);
    second.remove(b.id);
    expect(second.read(b.id)).toBeUndefined();
    await second.close();

    const third = fixture.spool({ dir });
    expect((await third.recover()).map((x) => x.id)).toEqual([c.id]);
    expect(third.read(c.id)?.toString()).toBe('c');
  });

  it('rotates at segmentBytes and deletes a segment once all its batches are removed', async () => {
    const dir = fixture.tempDir();
    const spool = fixture.spool({ dir, segmentBytes: 1024 });
    await spool.recover();
    // Each frame is ~900 bytes: one per segment; a tombstone (~50 bytes) fits beside one.
    const batches = Array.from({ length: 6 }, (_, i) => batch(String(i).repeat(600)));
    for (const b of batches) spool.append(b);
    expect(segmentFiles(dir)).toHaveLength(6);
    for (const b of batches.slice(0, 3)) spool.remove(b.id);
    // Segments 1-3 are deleted; the tombstones went to segment 6 and a new segment 7.
    expect(segmentFiles(dir).map((f) => f.slice(-16))).toEqual(
      [4, 5, 6, 7].map((n) => `seg-0000000${n}.log`),
    );
    await spool.close();
    const again = fixture.spool({ dir, segmentBytes: 1024 });
    expect((await again.recover()).map((b) => b.id)).toEqual(batches.slice(3).map((b) => b.id));
    for (const b of batches.slice(3)) again.remove(b.id);
    await again.close();
    expect(segmentFiles(dir)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps a segment of tombstones while a segment they point to is still on disk', async () => {
    const dir = fixture.tempDir();
    const spool = fixture.spool({ dir, segmentBytes: 2000 });
    await spool.recover();
    const [a, b] = [batch('a'.repeat(300)), batch('b'.repeat(300))];
    const [c, d] = [batch('c'.repeat(1200)), batch('d'.repeat(1200))];
    spool.append(a);
    spool.append(b); // segment 1: a, b
    spool.append(c); // segment 2: c
    spool.remove(a.id); // segment 2: tombstone of a (segment 1 stays for b)
    spool.append(d); // segment 3: d
    spool.remove(c.id); // segment 2 has nothing live, but deleting it would bring a back
    expect(segmentFiles(dir)).toHaveLength(3);
    await spool.close();

    const again = fixture.spool({ dir });
    expect((await again.recover()).map((x) => x.id)).toEqual([b.id, d.id]);
    again.remove(b.id); // segment 1 goes, and with it segment 2
    const adopted = segmentFiles(dir).filter((f) => f.includes('adopted'));
    expect(adopted.map((f) => f.slice(-16))).toEqual(['seg-00000003.log']);
  });
});
