import { dirname } from 'node:path';
import type { QueuedBatch } from '../queued-batch.js';
import { batchMeta, encodeBatchFrame, encodeTombstoneFrame } from './segment-format.js';
import { readSpooledBody } from './segment-reader.js';
import { createSegmentWriter, type SegmentWriter } from './segment-writer.js';
import type { Spool, SpoolAppend, SpoolFigures } from './spool.js';
import { asError, errnoCode, nodeSpoolFs, type SpoolFs } from './spool-fs.js';
import { createSpoolIndex, type Segment } from './spool-index.js';
import { forgetWriter, releaseWriter, startHeartbeat, type WriterDir } from './spool-lock.js';
import { recoverSpool } from './spool-recovery.js';

export interface DiskSpoolOptions {
  /** Directory of the spool, created if missing; several processes may share it. */
  readonly dir: string;
  /** Most bytes of live batch frames kept; beyond it the oldest batches are evicted. */
  readonly maxBytes: number;
  /**
   * Size at which a new segment file is started.
   * @default 4194304
   */
  readonly segmentBytes?: number;
  /**
   * How often what was appended is fsynced: what a power cut can lose.
   * @default 1000
   */
  readonly fsyncIntervalMillis?: number;
  /** Told about a failing directory or disk, once per kind of problem. */
  readonly onDiagnostic?: (message: string) => void;
  /** @default Date.now */
  readonly now?: () => number;
  /**
   * How often this process touches its lock.
   * @default 5000
   */
  readonly heartbeatMillis?: number;
  /**
   * A writer whose lock was not touched for this long is taken over, even if its pid exists.
   * @default 30000
   */
  readonly staleLockMillis?: number;
  /** The file system; tests replace it to simulate failing disks. */
  readonly fs?: SpoolFs;
}

/** A disk spool in `options.dir`; see docs/exporter.md, "Disk spool". */
export function createDiskSpool(options: DiskSpoolOptions): Spool {
  const fs = options.fs ?? nodeSpoolFs;
  const now = options.now ?? Date.now;
  const segmentBytes = options.segmentBytes ?? 4 * 1024 * 1024;
  const index = createSpoolIndex();
  const told = new Set<string>();
  const diagnose = (topic: string, message: string) => {
    if (told.has(topic)) return;
    told.add(topic);
    options.onDiagnostic?.(`reslog spool: ${message}`);
  };
  let state: 'new' | 'open' | 'failed' | 'closed' = 'new';
  let writer: WriterDir | undefined;
  let segments: SegmentWriter | undefined;
  let lastCurrent: Segment | undefined;
  let keepDir = false;
  let corruptFrames = 0;
  let writeErrors = 0;
  let adoptedSegments = 0;
  const stops: Array<() => void> = [];

  const unlink = (segment: Segment) => {
    try {
      fs.unlinkSync(segment.path);
      return true;
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return true;
      diagnose('unlink', `cannot delete ${segment.path} (${errnoCode(error) ?? error})`);
      return false;
    }
  };

  const written = (frame: Buffer, what: string) => {
    const at = segments?.write(frame) ?? new Error('spool is not open');
    if (at instanceof Error) {
      writeErrors++;
      diagnose(`write ${errnoCode(at)}`, `cannot write ${what} in ${options.dir}: ${at.message}`);
      return at;
    }
    if (lastCurrent && lastCurrent !== at.segment) index.sweep(lastCurrent, unlink);
    lastCurrent = at.segment;
    return at;
  };

  const removeEntry = (id: string) => {
    const at = written(encodeTombstoneFrame(id), 'a removal');
    const entry = index.kill(id, at instanceof Error ? undefined : at.segment);
    if (entry) index.sweep(entry.segment, unlink);
  };

  return {
    async recover() {
      if (state !== 'new') return [];
      try {
        const recovered = recoverSpool(
          {
            fs,
            dir: options.dir,
            now,
            staleLockMillis: options.staleLockMillis ?? 30_000,
            diagnose,
          },
          index,
        );
        writer = recovered.writer;
        keepDir = recovered.keepDir;
        corruptFrames += recovered.corruptFrames;
        adoptedSegments += recovered.segments.length;
        for (const segment of recovered.segments) index.sweep(segment, unlink);
        segments = createSegmentWriter(fs, writer.path, segmentBytes, [
          dirname(writer.path),
          ...recovered.changedDirs,
        ]);
        const flusher = setInterval(() => {
          const failed = segments?.flush();
          if (failed) diagnose('fsync', `cannot fsync ${options.dir}: ${failed.message}`);
        }, options.fsyncIntervalMillis ?? 1000);
        flusher.unref();
        stops.push(() => clearInterval(flusher));
        stops.push(
          startHeartbeat(fs, writer, now, options.heartbeatMillis ?? 5000, () =>
            diagnose('lost', `another process took over ${writer?.path} (stale heartbeat)`),
          ),
        );
        state = 'open';
        return recovered.entries.map((entry) => ({ ...entry.meta, body: undefined }));
      } catch (error) {
        state = 'failed';
        diagnose(
          'open',
          `cannot use ${options.dir}, batches are kept in memory only: ${asError(error).message}`,
        );
        return [];
      }
    },

    append(batch: QueuedBatch): SpoolAppend {
      if (state !== 'open') {
        if (state === 'failed') writeErrors++;
        return {
          ok: false,
          error: new Error(
            `reslog spool: the spool is ${state === 'failed' ? 'unusable' : 'not open'}`,
          ),
        };
      }
      if (!batch.body)
        return { ok: false, error: new Error('reslog spool: the batch has no body') };
      const meta = batchMeta(batch);
      const frame = encodeBatchFrame(meta, batch.body);
      if (frame.length > options.maxBytes) {
        return {
          ok: false,
          error: new Error(
            `reslog spool: a batch of ${frame.length} bytes exceeds maxBytes ${options.maxBytes}`,
          ),
        };
      }
      const at = written(frame, 'a batch');
      if (at instanceof Error) return { ok: false, error: at };
      index.add({ meta, segment: at.segment, offset: at.offset, bytes: frame.length });
      const evicted: string[] = [];
      for (const id of index.entries.keys()) {
        if (index.bytes() <= options.maxBytes || id === meta.id) break;
        removeEntry(id);
        evicted.push(id);
      }
      return { ok: true, bytes: frame.length, evicted };
    },

    read(id) {
      const entry = index.entries.get(id);
      if (!entry) return undefined;
      const body = readSpooledBody(fs, entry, segments?.fdOf(entry.segment));
      if (body instanceof Error) {
        diagnose(`read ${errnoCode(body)}`, `cannot read back a spooled batch: ${body.message}`);
        return undefined;
      }
      if (body === 'corrupt') {
        corruptFrames++;
        diagnose('corrupt read', 'a spooled batch no longer matches its checksum');
        return undefined;
      }
      return body;
    },

    remove(id) {
      if (state === 'open' && index.entries.has(id)) removeEntry(id);
    },

    stats(): SpoolFigures {
      return {
        bytes: index.bytes(),
        bytesByTarget: new Map(index.bytesByTarget()),
        corruptFrames,
        writeErrors,
        adoptedSegments,
      };
    },

    async close() {
      const wasOpen = state === 'open';
      state = 'closed';
      for (const stop of stops.splice(0)) stop();
      if (!wasOpen || !writer || !segments) return;
      const failed = segments.close();
      if (failed) diagnose('fsync', `cannot fsync ${options.dir}: ${failed.message}`);
      if (lastCurrent) index.sweep(lastCurrent, unlink);
      if (index.entries.size === 0 && !keepDir) {
        forgetWriter(writer);
        try {
          fs.rmSync(writer.path);
        } catch {
          releaseWriter(fs, writer);
        }
      } else releaseWriter(fs, writer);
    },
  };
}
