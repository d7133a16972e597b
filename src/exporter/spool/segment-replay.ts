import { join } from 'node:path';
import { decodeFrame } from './segment-format.js';
import type { SpoolFs } from './spool-fs.js';
import { newSegment, type Segment, type SpoolIndex } from './spool-index.js';
import { ADOPTED_DIR } from './spool-lock.js';

const SEGMENT_NAME = /^seg-\d+\.log$/;

/**
 * The segment files of a writer directory in the order they were written: first those of the
 * writers it adopted (recursively, since they are older than its own), then its own by number.
 */
export function listSegmentFiles(fs: SpoolFs, writerPath: string): string[] {
  const files: string[] = [];
  const walk = (path: string) => {
    let names: string[];
    try {
      names = fs.readdirSync(path).sort();
    } catch {
      return;
    }
    if (names.includes(ADOPTED_DIR)) {
      const adopted = join(path, ADOPTED_DIR);
      let writers: string[] = [];
      try {
        writers = fs.readdirSync(adopted).sort();
      } catch {
        // Not a directory, or unreadable: nothing adopted to replay.
      }
      for (const writer of writers) walk(join(adopted, writer));
    }
    for (const name of names) if (SEGMENT_NAME.test(name)) files.push(join(path, name));
  };
  walk(writerPath);
  return files;
}

export interface ReplayResult {
  readonly segments: Segment[];
  readonly corruptFrames: number;
  /** Files that could not be read: their directory must not be deleted. */
  readonly unreadable: string[];
}

/**
 * Reads the segments into the index: batches become live, tombstones kill them. A damaged frame
 * whose length is plausible is skipped; a bad magic, an impossible length or a torn tail ends
 * that segment. Each counts once in `corruptFrames`. Never throws.
 */
export function replaySegments(
  fs: SpoolFs,
  files: readonly string[],
  index: SpoolIndex,
): ReplayResult {
  const segments: Segment[] = [];
  const unreadable: string[] = [];
  let corruptFrames = 0;
  for (const path of files) {
    let data: Buffer;
    try {
      data = fs.readFileSync(path);
    } catch {
      unreadable.push(path);
      continue;
    }
    const segment = newSegment(path, false);
    segment.size = data.length;
    segments.push(segment);
    let offset = 0;
    while (offset < data.length) {
      const read = decodeFrame(data, offset);
      if (read.ok) {
        const { frame } = read;
        if (frame.kind === 'batch')
          index.add({ meta: frame.meta, segment, offset, bytes: read.bytes });
        else index.kill(frame.id, segment);
        offset += read.bytes;
      } else {
        corruptFrames++;
        if (!read.skip) break;
        offset += read.bytes;
      }
    }
  }
  return { segments, corruptFrames, unreadable };
}
