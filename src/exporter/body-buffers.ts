/** Backing buffers grow in steps of this size, so that a slightly larger body still fits. */
const STEP_BYTES = 64 * 1024;

/**
 * Reusable memory for request bodies. A new `Buffer` per batch lives outside the V8 heap, and
 * V8 answers that external memory with full collections of the whole heap: about one per
 * 70 MB of bodies, which cost the exporter ≈ 0.4 µs per record (docs/performance.md).
 */
export interface BodyBuffers {
  /** A buffer of exactly `size` bytes, on a free pooled buffer when there is one. */
  acquire(size: number): Buffer;
  /**
   * Gives a buffer from {@link acquire} back. Call it only once nothing reads the body any
   * more: after gzip has consumed it, or after the service answered 2xx (it read the whole
   * body before acknowledging, so the socket has written all of it). After any other
   * outcome (an error answer that may come before the body was read, a timeout, a reset)
   * drop the buffer instead: a write still queued on the socket may yet read it.
   */
  release(body: Buffer): void;
}

/**
 * Keeps at most `maxPooled` free buffers (the exporter passes `maxConcurrency`, the most
 * requests it has in flight), so the memory it holds is bounded by `maxPooled` ×
 * the largest body, `maxBatchBytes` (1 MiB) by default.
 */
export function createBodyBuffers(maxPooled: number): BodyBuffers {
  const free: Buffer[] = [];
  // Memory handed out and not yet given back: a second release() of one body, or one of a
  // buffer that never came from here, must not put memory in use into the pool.
  const lent = new WeakSet<ArrayBufferLike>();
  return {
    acquire(size) {
      let backing = free.pop();
      if (backing === undefined || backing.length < size) {
        backing = Buffer.allocUnsafeSlow(Math.ceil(Math.max(size, 1) / STEP_BYTES) * STEP_BYTES);
      }
      lent.add(backing.buffer);
      return backing.subarray(0, size);
    },
    release(body) {
      const memory = body.buffer;
      if (!lent.delete(memory) || free.length >= maxPooled) return;
      // acquire() hands out views that start at offset 0 of their own ArrayBuffer.
      free.push(Buffer.from(memory, 0, memory.byteLength));
    },
  };
}
