import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { batch, spoolFixture } from '../reliability/helpers/spool-fixture.js';

const fixture = spoolFixture();
afterEach(() => fixture.cleanup());

type Step = { op: 'append'; size: number } | { op: 'remove'; pick: number } | { op: 'restart' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('append' as const),
      size: fc.integer({ min: 0, max: 500 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('restart' as const) }) },
);

describe('disk spool: against a model', () => {
  it('recovers exactly the batches appended and not removed, whatever segments were deleted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const dir = fixture.tempDir();
        const live = new Map<string, Buffer>();
        let spool = fixture.spool({ dir, segmentBytes: 700 });
        await spool.recover();
        for (const s of steps) {
          if (s.op === 'append') {
            const b = batch('x'.repeat(s.size) + live.size);
            expect(spool.append(b)).toMatchObject({ ok: true, evicted: [] });
            live.set(b.id, b.body as Buffer);
          } else if (s.op === 'remove' && live.size > 0) {
            const id = [...live.keys()][s.pick % live.size] as string;
            spool.remove(id);
            live.delete(id);
          } else if (s.op === 'restart') {
            await spool.close();
            spool = fixture.spool({ dir, segmentBytes: 700 });
            const recovered = await spool.recover();
            expect(recovered.map((b) => b.id).sort()).toEqual([...live.keys()].sort());
          }
        }
        await spool.close();
        const last = fixture.spool({ dir });
        const recovered = await last.recover();
        expect(recovered.map((b) => b.id).sort()).toEqual([...live.keys()].sort());
        for (const b of recovered) expect(last.read(b.id)).toEqual(live.get(b.id));
        expect(last.stats().corruptFrames).toBe(0);
        await last.close();
      }),
      { numRuns: 150 },
    );
  });
});
