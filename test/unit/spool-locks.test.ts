import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeSpoolFs } from '../../src/exporter/spool/spool-fs.js';
import { adoptWriterDir } from '../../src/exporter/spool/spool-lock.js';
import { batch, spoolFixture, withoutBody } from '../reliability/helpers/spool-fixture.js';

const fixture = spoolFixture();
afterEach(() => fixture.cleanup());

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return pid as number;
}

/** Moves the only writer directory of `dir` aside as another process's, with the given lock. */
async function leftBehind(lock: { pid: number; hostname: string }, mtime?: Date) {
  const dir = fixture.tempDir();
  const spool = fixture.spool({ dir });
  await spool.recover();
  const batches = [batch('one'), batch('two')];
  for (const b of batches) spool.append(b);
  await spool.close();
  const [writer] = readdirSync(dir) as [string];
  const lockPath = join(dir, writer, 'lock');
  writeFileSync(lockPath, JSON.stringify({ ...lock, writerId: writer.slice(2), startedAt: 0 }));
  if (mtime) utimesSync(lockPath, mtime, mtime);
  return { dir, writer, batches };
}

describe('disk spool: locks and adoption', () => {
  it('never adopts the writer directory of a spool open in this process', async () => {
    const dir = fixture.tempDir();
    const first = fixture.spool({ dir });
    await first.recover();
    const b = batch('mine');
    first.append(b);
    const second = fixture.spool({ dir });
    expect(await second.recover()).toEqual([]);
    second.append(batch('theirs'));
    expect(readdirSync(dir).filter((n) => n.startsWith('w-'))).toHaveLength(2);
    expect(first.read(b.id)?.toString()).toBe('mine');
  });

  it('adopts the writer directory of a dead process on this host', async () => {
    const { dir, writer, batches } = await leftBehind({ pid: deadPid(), hostname: hostname() });
    const spool = fixture.spool({ dir });
    expect(await spool.recover()).toEqual(batches.map(withoutBody));
    expect(spool.stats().adoptedSegments).toBe(1);
    expect(existsSync(join(dir, writer))).toBe(false);
  });

  it('leaves a live process alone, and adopts a writer whose heartbeat is older than staleLockMillis', async () => {
    const lock = { pid: process.ppid, hostname: hostname() };
    const { dir, batches } = await leftBehind(lock, new Date());
    expect(await fixture.spool({ dir }).recover()).toEqual([]);
    const later = fixture.spool({ dir, now: () => Date.now() + 31_000 });
    expect(await later.recover()).toEqual(batches.map(withoutBody));
  });

  it('hands adopted batches on: a later process replays them unless they were removed', async () => {
    const { dir, batches } = await leftBehind({ pid: deadPid(), hostname: hostname() });
    const adopter = fixture.spool({ dir });
    await adopter.recover();
    adopter.remove(batches[0]?.id as string);
    const own = batch('own');
    adopter.append(own);
    await adopter.close();
    const next = fixture.spool({ dir });
    expect(await next.recover()).toEqual([withoutBody(batches[1] as never), withoutBody(own)]);
  });

  it('lets only one of two adopters claim a writer directory', async () => {
    const dir = fixture.tempDir();
    for (const name of ['w-dead', 'w-a', 'w-b']) mkdirSync(join(dir, name));
    expect(adoptWriterDir(nodeSpoolFs, dir, 'w-dead', join(dir, 'w-a'))).toBe(true);
    expect(adoptWriterDir(nodeSpoolFs, dir, 'w-dead', join(dir, 'w-b'))).toBe(false);
    expect(readdirSync(join(dir, 'w-a', 'adopted'))).toEqual(['w-dead']);
  });

  it('touches its lock as a heartbeat, and says so when another process took its directory', async () => {
    const dir = fixture.tempDir();
    const messages: string[] = [];
    const spool = fixture.spool({
      dir,
      heartbeatMillis: 10,
      onDiagnostic: (m) => messages.push(m),
    });
    await spool.recover();
    const [writer] = readdirSync(dir) as [string];
    const lockPath = join(dir, writer, 'lock');
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({
      pid: process.pid,
      hostname: hostname(),
    });
    utimesSync(lockPath, new Date(0), new Date(0));
    await vi.waitFor(() => expect(statSync(lockPath).mtimeMs).toBeGreaterThan(Date.now() - 10_000));
    const other = join(dir, 'w-other');
    mkdirSync(other);
    expect(adoptWriterDir(nodeSpoolFs, dir, writer, other)).toBe(true);
    await vi.waitFor(() => expect(messages.join()).toMatch(/another process took over/));
  });

  it('releases its lock on close so that the next process adopts what is left at once', async () => {
    const dir = fixture.tempDir();
    const spool = fixture.spool({ dir });
    await spool.recover();
    spool.append(batch('left'));
    await spool.close();
    const [writer] = readdirSync(dir) as [string];
    expect(readdirSync(join(dir, writer))).toEqual(['seg-00000001.log']);
  });
});
