import { join } from 'node:path';
import { listSegmentFiles, replaySegments } from './segment-replay.js';
import { errnoCode, type SpoolFs } from './spool-fs.js';
import type { Segment, SpoolEntry, SpoolIndex } from './spool-index.js';
import {
  ADOPTED_DIR,
  adoptWriterDir,
  createWriterDir,
  isAdoptable,
  listWriterDirs,
  pendingWriterId,
  type WriterDir,
} from './spool-lock.js';

export interface RecoveryOptions {
  readonly fs: SpoolFs;
  readonly dir: string;
  readonly now: () => number;
  readonly staleLockMillis: number;
  readonly diagnose: (topic: string, message: string) => void;
}

export interface Recovered {
  readonly writer: WriterDir;
  /** Replayed (adopted) segments, each with the live batches it holds. */
  readonly segments: Segment[];
  /** Live batches, oldest first (enqueuedAt, then write order). */
  readonly entries: SpoolEntry[];
  readonly corruptFrames: number;
  /** Directories that now belong to this writer: synced at the first flush. */
  readonly changedDirs: string[];
  /** Something could not be read: keep the writer directory even when nothing is live. */
  readonly keepDir: boolean;
}

/**
 * Opens the spool directory (docs/exporter.md, "Disk spool"): creates this process's writer
 * directory with its lock, adopts the writer directories of dead or closed writers, and replays
 * everything now under the writer directory into `index`. Throws only when the writer directory
 * cannot be created (the spool is then unusable); anything else is skipped and told.
 */
export function recoverSpool(options: RecoveryOptions, index: SpoolIndex): Recovered {
  const { fs, dir, now, staleLockMillis, diagnose } = options;
  fs.ensureDirSync(dir);
  const writer = createWriterDir(fs, dir, now);
  const changedDirs = [dir];
  let listing: ReturnType<typeof listWriterDirs> = { writers: [], pending: [] };
  try {
    listing = listWriterDirs(fs, dir);
  } catch (error) {
    diagnose('list', `cannot list ${dir} (${errnoCode(error) ?? error}): nothing adopted`);
  }
  for (const name of listing.writers) {
    const id = name.slice(2);
    if (id === writer.id || !isAdoptable(fs, join(dir, name), id, now, staleLockMillis)) continue;
    if (adoptWriterDir(fs, dir, name, writer.path)) {
      changedDirs.push(join(writer.path, ADOPTED_DIR));
    }
  }
  for (const name of listing.pending) {
    // A writer that crashed between creating its directory and naming it: no segments yet.
    if (isAdoptable(fs, join(dir, name), pendingWriterId(name), now, staleLockMillis)) {
      try {
        fs.rmSync(join(dir, name));
      } catch {
        // Left for the next start.
      }
    }
  }
  const replay = replaySegments(fs, listSegmentFiles(fs, writer.path), index);
  if (replay.unreadable.length > 0) {
    diagnose(
      'unreadable',
      `cannot read ${replay.unreadable.length} spool segment(s), kept on disk`,
    );
  }
  const entries = [...index.entries.values()].sort((a, b) => a.meta.enqueuedAt - b.meta.enqueuedAt);
  index.reorder(entries);
  return {
    writer,
    segments: replay.segments,
    entries,
    corruptFrames: replay.corruptFrames,
    changedDirs: [...new Set(changedDirs)],
    keepDir: replay.unreadable.length > 0,
  };
}
