/**
 * Splits an HTTP/1.1 byte stream into whole messages (head + body), by `Content-Length` or
 * chunked framing, so the fault proxy can act per request and per answer on a keep-alive
 * connection. Enough for what undici sends and fastify answers; not a general HTTP parser.
 */
export class MessageSplitter {
  #buffer: Buffer = Buffer.alloc(0);

  /** Appends bytes; returns every message completed by them, in order. */
  push(chunk: Buffer): Buffer[] {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    const messages: Buffer[] = [];
    for (;;) {
      const length = messageLength(this.#buffer);
      if (length === undefined) break;
      messages.push(this.#buffer.subarray(0, length));
      this.#buffer = this.#buffer.subarray(length);
    }
    return messages;
  }
}

/** Where the head ends (index after `\r\n\r\n`), or -1. */
export function headLength(buffer: Buffer): number {
  const end = buffer.indexOf('\r\n\r\n');
  return end < 0 ? -1 : end + 4;
}

/** Length of the first complete message in `buffer`, or undefined while it is incomplete. */
function messageLength(buffer: Buffer): number | undefined {
  const head = headLength(buffer);
  if (head < 0) return undefined;
  const headText = buffer.subarray(0, head).toString('latin1');
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(headText)) {
    let at = head;
    for (;;) {
      const lineEnd = buffer.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
      if (Number.isNaN(size)) throw new Error('bad chunk size');
      if (size === 0) {
        // No trailers from our peers: the last chunk is `0\r\n\r\n`.
        return buffer.length >= lineEnd + 4 ? lineEnd + 4 : undefined;
      }
      at = lineEnd + 2 + size + 2;
      if (at > buffer.length) return undefined;
    }
  }
  const match = /\r\ncontent-length:\s*(\d+)/i.exec(headText);
  const body = match?.[1] ? Number(match[1]) : 0;
  return buffer.length >= head + body ? head + body : undefined;
}
