import { crc32 } from 'node:zlib';
import type { QueuedBatch } from '../queued-batch.js';

/**
 * The frames of a spool segment (docs/exporter.md, "Disk spool"):
 * `[magic u32][length u32][crc32 u32][payload: length bytes]`, big-endian, where the CRC-32
 * covers the length field and the payload, so a torn tail, a flipped bit or a frame that a
 * failed write left half-written never decodes as valid.
 *
 * Payload of a batch: `[1][metaLength u32][meta JSON][body]`; of a tombstone: `[2][id UTF-8]`.
 */
export const FRAME_MAGIC = 0x52_53_4c_31; // "RSL1"
export const HEADER_BYTES = 12;
/** A length beyond this is implausible however big the batch: reading the segment stops there. */
export const MAX_PAYLOAD_BYTES = 0x7fff_ffff;

const BATCH = 1;
const TOMBSTONE = 2;

/** What a batch frame records besides its body: a `QueuedBatch` without `body`. */
export type BatchMeta = Omit<QueuedBatch, 'body'>;

export type Frame =
  | {
      readonly kind: 'batch';
      readonly meta: BatchMeta;
      /** Where the body starts and how long it is, relative to the frame's start. */
      readonly bodyOffset: number;
      readonly bodyLength: number;
    }
  | { readonly kind: 'tombstone'; readonly id: string };

/** The batch without its body (and without any field a caller may have added). */
export function batchMeta(batch: QueuedBatch): BatchMeta {
  return {
    id: batch.id,
    target: batch.target,
    gzipped: batch.gzipped,
    envelopeBytes: batch.envelopeBytes,
    sizes: batch.sizes,
    enqueuedAt: batch.enqueuedAt,
  };
}

export function encodeBatchFrame(meta: BatchMeta, body: Buffer): Buffer {
  const json = Buffer.from(JSON.stringify(meta), 'utf8');
  const frame = Buffer.allocUnsafe(HEADER_BYTES + 5 + json.length + body.length);
  frame.writeUInt8(BATCH, HEADER_BYTES);
  frame.writeUInt32BE(json.length, HEADER_BYTES + 1);
  json.copy(frame, HEADER_BYTES + 5);
  body.copy(frame, HEADER_BYTES + 5 + json.length);
  return seal(frame);
}

export function encodeTombstoneFrame(id: string): Buffer {
  const idBytes = Buffer.from(id, 'utf8');
  const frame = Buffer.allocUnsafe(HEADER_BYTES + 1 + idBytes.length);
  frame.writeUInt8(TOMBSTONE, HEADER_BYTES);
  idBytes.copy(frame, HEADER_BYTES + 1);
  return seal(frame);
}

function seal(frame: Buffer): Buffer {
  frame.writeUInt32BE(FRAME_MAGIC, 0);
  frame.writeUInt32BE(frame.length - HEADER_BYTES, 4);
  frame.writeUInt32BE(checksum(frame, frame.length - HEADER_BYTES), 8);
  return frame;
}

function checksum(frame: Buffer, length: number): number {
  return crc32(frame.subarray(HEADER_BYTES, HEADER_BYTES + length), crc32(frame.subarray(4, 8)));
}

export type FrameRead =
  | { readonly ok: true; readonly frame: Frame; readonly bytes: number }
  /** The frame is damaged but its length is plausible: the next one starts `bytes` further. */
  | { readonly ok: false; readonly skip: true; readonly bytes: number }
  /** Nothing after this point can be trusted (bad magic, impossible length, torn tail). */
  | { readonly ok: false; readonly skip: false };

/** Decodes the frame at `offset` of `data`; never throws. */
export function decodeFrame(data: Buffer, offset: number): FrameRead {
  const left = data.length - offset;
  if (left < HEADER_BYTES || data.readUInt32BE(offset) !== FRAME_MAGIC) {
    return { ok: false, skip: false };
  }
  const length = data.readUInt32BE(offset + 4);
  if (length < 1 || length > MAX_PAYLOAD_BYTES || length > left - HEADER_BYTES) {
    return { ok: false, skip: false };
  }
  const bytes = HEADER_BYTES + length;
  const frame = data.subarray(offset, offset + bytes);
  if (checksum(frame, length) !== frame.readUInt32BE(8)) return { ok: false, skip: true, bytes };
  const parsed = parsePayload(frame);
  return parsed ? { ok: true, frame: parsed, bytes } : { ok: false, skip: true, bytes };
}

function parsePayload(frame: Buffer): Frame | undefined {
  const kind = frame.readUInt8(HEADER_BYTES);
  if (kind === TOMBSTONE) {
    return { kind: 'tombstone', id: frame.toString('utf8', HEADER_BYTES + 1) };
  }
  if (kind !== BATCH || frame.length < HEADER_BYTES + 5) return undefined;
  const jsonLength = frame.readUInt32BE(HEADER_BYTES + 1);
  const bodyOffset = HEADER_BYTES + 5 + jsonLength;
  if (bodyOffset > frame.length) return undefined;
  try {
    const meta = JSON.parse(frame.toString('utf8', HEADER_BYTES + 5, bodyOffset)) as BatchMeta;
    if (typeof meta?.id !== 'string' || typeof meta.enqueuedAt !== 'number') return undefined;
    return { kind: 'batch', meta, bodyOffset, bodyLength: frame.length - bodyOffset };
  } catch {
    return undefined;
  }
}
