import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiskSpool } from '../../src/exporter/spool/disk-spool.js';
import { NODE, ROOT } from '../harness/paths.ts';

const CHILD = join(ROOT, 'test/reliability/helpers/spool-child.ts');
const dir = mkdtempSync(join(tmpdir(), 'reslog-spool-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Round {
  readonly ready: boolean;
  readonly recovered: string[];
  readonly acked: string[];
  readonly removing: string[];
  readonly removed: string[];
}

/** Runs the child on `dir` and SIGKILLs it `killAfterMillis` after it started. */
async function runAndKill(killAfterMillis: number): Promise<Round> {
  const child = spawn(NODE, [CHILD, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const round = {
    ready: false,
    recovered: [] as string[],
    acked: [] as string[],
    removing: [] as string[],
    removed: [] as string[],
  };
  const lines = createInterface({ input: child.stdout });
  const closed = once(lines, 'close');
  lines.on('line', (line) => {
    const [kind, id] = line.split(' ') as [string, string];
    if (kind === 'ready') round.ready = true;
    else if (kind === 'recovered') round.recovered.push(id);
    else if (kind === 'ack') round.acked.push(id);
    else if (kind === 'removing') round.removing.push(id);
    else if (kind === 'removed') round.removed.push(id);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMillis);
  const [code, signal] = await exited;
  clearTimeout(timer);
  await closed;
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  return round;
}

function expectedBody(id: string): Buffer {
  const n = Number(id.split('-')[1]);
  return Buffer.alloc(200 + ((n * 7919) % 3000), n % 251);
}

describe('disk spool: SIGKILL at any moment', () => {
  it('recovers every acknowledged batch exactly once, and never one it was told was removed', async () => {
    /** Must be recovered: acknowledged (or recovered) and not removed. */
    const live = new Set<string>();
    /** May be recovered or not: the process died inside remove(). */
    const maybe = new Set<string>();
    const removed = new Set<string>();
    const check = (list: readonly string[]) => {
      const recovered = new Set(list);
      expect(recovered.size).toBe(list.length);
      expect(
        [...live].filter((id) => !recovered.has(id)),
        'acknowledged, not recovered',
      ).toEqual([]);
      expect(
        list.filter((id) => removed.has(id)),
        'removed, recovered again',
      ).toEqual([]);
    };
    // Some kills land during recovery and adoption, most while appending and removing. On a
    // loaded machine the child may take longer than a delay to start: a round killed before
    // it was ready checks nothing, so later delays grow by the start-up time seen and rounds go
    // on until eight were checked (at most 20).
    const delays = [60, 400, 150, 700, 250, 900, 120, 500];
    let checked = 0;
    let slack = 0;
    for (let attempt = 0; checked < delays.length && attempt < 20; attempt++) {
      const delay = (delays[attempt % delays.length] as number) + slack;
      const round = await runAndKill(delay + Math.floor(Math.random() * 100));
      if (!round.ready) {
        slack += 250;
        continue;
      }
      check(round.recovered);
      checked++;
      for (const id of round.recovered) {
        live.add(id);
        maybe.delete(id);
      }
      for (const id of round.acked) live.add(id);
      for (const id of round.removing) {
        live.delete(id);
        maybe.add(id);
      }
      for (const id of round.removed) {
        maybe.delete(id);
        removed.add(id);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(4);
    expect(live.size).toBeGreaterThan(100);

    const spool = createDiskSpool({ dir, maxBytes: 1024 * 1024 * 1024 });
    const recovered = await spool.recover();
    check(recovered.map((b) => b.id));
    for (const batch of recovered) expect(spool.read(batch.id)).toEqual(expectedBody(batch.id));
    await spool.close();
  }, 60_000);
});
