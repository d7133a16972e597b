import { decodeFrame } from './segment-format.js';
import { asError, type SpoolFs } from './spool-fs.js';
import type { SpoolEntry } from './spool-index.js';

/**
 * Reads a live batch's body back by its recorded segment and offset, checking the frame's
 * checksum again (docs/exporter.md, "Disk spool"): `'corrupt'` when the bytes on disk no
 * longer match, an `Error` when they could not be read. Uses `fd` when the segment is open.
 */
export function readSpooledBody(
  fs: SpoolFs,
  entry: SpoolEntry,
  fd: number | undefined,
): Buffer | 'corrupt' | Error {
  const frame = Buffer.allocUnsafe(entry.bytes);
  let own: number | undefined;
  try {
    if (fd === undefined) own = fs.openSync(entry.segment.path, 'r');
    const from = fd ?? (own as number);
    let done = 0;
    while (done < frame.length) {
      const got = fs.readSync(from, frame, done, frame.length - done, entry.offset + done);
      if (got <= 0) break;
      done += got;
    }
    const decoded = decodeFrame(frame.subarray(0, done), 0);
    if (!decoded.ok || decoded.frame.kind !== 'batch' || decoded.frame.meta.id !== entry.meta.id) {
      return 'corrupt';
    }
    const { bodyOffset, bodyLength } = decoded.frame;
    return frame.subarray(bodyOffset, bodyOffset + bodyLength);
  } catch (error) {
    return asError(error);
  } finally {
    if (own !== undefined) fs.closeSync(own);
  }
}
