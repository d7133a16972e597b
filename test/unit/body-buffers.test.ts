import { describe, expect, it } from 'vitest';
import { userOwner } from '../../src/config/owner.js';
import { HttpError } from '../../src/errors.js';
import { createBatchSender } from '../../src/exporter/batch-sender.js';
import { createBodyBuffers } from '../../src/exporter/body-buffers.js';
import { encodeBody } from '../../src/exporter/body-encoder.js';
import { createCompressionPolicy } from '../../src/exporter/compression-policy.js';
import { createExportStats } from '../../src/exporter/export-stats.js';
import type { ExportResponse, HttpRequest } from '../../src/transport/export-response.js';

describe('createBodyBuffers', () => {
  it('hands out exactly the size asked for, and memory given back is used again', () => {
    const buffers = createBodyBuffers(2);
    const first = buffers.acquire(1000);
    expect(first.length).toBe(1000);
    buffers.release(first);
    const second = buffers.acquire(900);
    expect(second.length).toBe(900);
    expect(second.buffer).toBe(first.buffer);
  });

  it('never lends the same memory twice while it is out', () => {
    const buffers = createBodyBuffers(4);
    const a = buffers.acquire(100);
    const b = buffers.acquire(100);
    expect(b.buffer).not.toBe(a.buffer);
    buffers.release(a);
    buffers.release(a); // a second release of one body is ignored
    const c = buffers.acquire(100);
    const d = buffers.acquire(100);
    expect(c.buffer).toBe(a.buffer);
    expect(d.buffer).not.toBe(a.buffer);
    expect(d.buffer).not.toBe(b.buffer);
  });

  it('ignores buffers it did not lend', () => {
    const buffers = createBodyBuffers(4);
    const foreign = Buffer.alloc(100);
    buffers.release(foreign);
    expect(buffers.acquire(100).buffer).not.toBe(foreign.buffer);
  });

  it('keeps at most maxPooled free buffers', () => {
    const buffers = createBodyBuffers(2);
    const lent = [buffers.acquire(10), buffers.acquire(10), buffers.acquire(10)];
    for (const body of lent) buffers.release(body);
    const memories = new Set(lent.map((body) => body.buffer));
    const again = [buffers.acquire(10), buffers.acquire(10), buffers.acquire(10)];
    expect(again.filter((body) => memories.has(body.buffer))).toHaveLength(2);
  });

  it('replaces a free buffer that is too small', () => {
    const buffers = createBodyBuffers(1);
    const small = buffers.acquire(10);
    buffers.release(small);
    const large = buffers.acquire(200_000);
    expect(large.length).toBe(200_000);
    expect(large.buffer).not.toBe(small.buffer);
  });
});

describe('batch sender body reuse', () => {
  const envelope = Buffer.from('{"logs":[');
  const batch = (text: string) => {
    const record = `{"message":"${text}"}`;
    return { records: [record], sizes: [Buffer.byteLength(record)] };
  };
  const ok: ExportResponse = { status: 'success', statusCode: 202, json: { accepted: 1 } };
  const unavailable: ExportResponse = {
    status: 'retryable',
    statusCode: 503,
    error: new HttpError(503, undefined, 'HTTP 503'),
  };

  /** A transport that answers from `answers` and keeps what each request's body held when sent. */
  function recordingSender(answers: ExportResponse[]) {
    const sent: { body: Buffer; text: string }[] = [];
    const bodies = createBodyBuffers(2);
    const sender = createBatchSender({
      transport: {
        async send(request: HttpRequest) {
          const body = request.body as Buffer;
          sent.push({ body, text: body.toString() });
          return answers.shift() ?? ok;
        },
        async close() {},
      },
      compression: createCompressionPolicy('none'),
      headers: {},
      stats: createExportStats(undefined),
      secrets: [],
      bodies,
      onResized: () => undefined,
    });
    const target = { key: 'alice/r', owner: userOwner('alice'), uuid: 'r', path: '/logs/' };
    const send = (text: string) => {
      const records = batch(text);
      return sender({
        id: text,
        target,
        body: encodeBody(envelope, records, bodies.acquire),
        gzipped: false,
        envelopeBytes: envelope.length,
        sizes: records.sizes,
        enqueuedAt: 0,
      });
    };
    return { sent, send };
  }

  it('reuses a body only after the service acknowledged it', async () => {
    const { sent, send } = recordingSender([ok, ok, unavailable]);
    await send('one');
    await send('two'); // acknowledged: its memory is used again
    await send('three'); // 503: the batch stays queued, its memory is not reused
    await send('four');
    expect(sent.map((s) => s.text)).toEqual(
      ['one', 'two', 'three', 'four'].map((t) => `{"logs":[{"message":"${t}"}]}`),
    );
    const [one, two, three, four] = sent.map((s) => s.body.buffer);
    expect(two).toBe(one);
    expect(three).toBe(one);
    expect(four).not.toBe(three);
    // What a request still held is left alone: the 503'd body still reads as it was sent.
    expect(sent[2]?.body.toString()).toBe('{"logs":[{"message":"three"}]}');
  });
});
