import { join } from 'node:path';
import { asError, type SpoolFs } from './spool-fs.js';
import { newSegment, type Segment } from './spool-index.js';

/**
 * Appends frames to the writer's current segment with positional synchronous writes, so a
 * frame is in the page cache (and survives SIGKILL) when `write()` returns; fsync is left to
 * `flush()`, which the spool runs on a timer (docs/exporter.md, "Disk spool").
 */
export interface SegmentWriter {
  /** Writes the frame whole, or returns the error and leaves no partial frame behind. */
  write(frame: Buffer): { segment: Segment; offset: number } | Error;
  /** The open descriptor of a segment still being written or not yet fsynced, if any. */
  fdOf(segment: Segment): number | undefined;
  /** fsyncs what was written since the last flush, and the directory when files were added. */
  flush(): Error | undefined;
  /** Flushes and closes every descriptor; the current segment becomes an ordinary one. */
  close(): Error | undefined;
  current(): Segment | undefined;
}

export function segmentFileName(sequence: number): string {
  return `seg-${String(sequence).padStart(8, '0')}.log`;
}

export function createSegmentWriter(
  fs: SpoolFs,
  dirPath: string,
  segmentBytes: number,
  /** Directories whose new entries (this writer directory, adopted ones) the first flush syncs. */
  parentDirs: readonly string[] = [],
): SegmentWriter {
  let sequence = 0;
  let current: { segment: Segment; fd: number; broken: boolean } | undefined;
  /** Descriptors written to since the last flush; rotated-out ones are closed after their fsync. */
  const dirty = new Map<Segment, number>();
  let directoryDirty = false;
  let dirsToSync = [...parentDirs];

  const retire = () => {
    if (!current) return;
    current.segment.current = false;
    dirty.set(current.segment, current.fd);
    current = undefined;
  };

  const open = (): Error | undefined => {
    try {
      const segment = newSegment(join(dirPath, segmentFileName(++sequence)), true);
      const fd = fs.openSync(segment.path, 'wx+');
      current = { segment, fd, broken: false };
      directoryDirty = true;
      return undefined;
    } catch (error) {
      return asError(error);
    }
  };

  const flush = (): Error | undefined => {
    let failure: Error | undefined;
    for (const [segment, fd] of dirty) {
      try {
        fs.fsyncSync(fd);
      } catch (error) {
        failure ??= asError(error);
      }
      if (segment !== current?.segment) {
        try {
          fs.closeSync(fd);
        } catch {
          // Nothing left to lose: the data was written (or the fsync above reported why not).
        }
      }
    }
    dirty.clear();
    if (directoryDirty) dirsToSync.push(dirPath);
    directoryDirty = false;
    for (const dir of dirsToSync) {
      try {
        const fd = fs.openSync(dir, 'r');
        try {
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
      } catch (error) {
        failure ??= asError(error);
      }
    }
    dirsToSync = [];
    return failure;
  };

  return {
    write(frame) {
      const full = current && current.segment.size + frame.length > segmentBytes;
      if (!current || current.broken || (full && current.segment.size > 0)) {
        retire();
        const failed = open();
        if (failed) return failed;
      }
      const target = current as NonNullable<typeof current>;
      const offset = target.segment.size;
      try {
        for (let done = 0; done < frame.length; ) {
          const wrote = fs.writeSync(target.fd, frame, done, frame.length - done, offset + done);
          if (wrote <= 0) throw new Error(`wrote ${wrote} bytes to ${target.segment.path}`);
          done += wrote;
        }
      } catch (error) {
        // Cut the half-written frame off so the next frame follows a whole one; if even that
        // fails, the tail is left to the checksum and the next frame goes to a new segment.
        try {
          fs.ftruncateSync(target.fd, offset);
        } catch {
          target.broken = true;
        }
        return asError(error);
      }
      target.segment.size += frame.length;
      dirty.set(target.segment, target.fd);
      return { segment: target.segment, offset };
    },
    fdOf: (segment) =>
      current?.segment === segment ? current.fd : (dirty.get(segment) ?? undefined),
    flush,
    close() {
      retire();
      return flush();
    },
    current: () => current?.segment,
  };
}
