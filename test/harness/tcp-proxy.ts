import { createServer, connect as netConnect, type Socket } from 'node:net';
import { headLength, MessageSplitter } from './http-framing.ts';

/**
 * What the proxy does to one request and its answer (only with `decide`, see
 * {@link startTcpProxy}):
 * - `pass`: forwards both;
 * - `reset-before-reply`: drops the request (the receiver never sees it) and resets the client;
 * - `reset-after-reply`: forwards the request, lets the receiver answer (so it has committed),
 *   then resets the client instead of passing the answer on;
 * - `delay-reply`: holds the answer back for `millis`;
 * - `stall-mid-body`: passes the answer's head and half its body, then nothing more.
 */
export type ProxyFault =
  | { kind: 'pass' }
  | { kind: 'reset-before-reply' }
  | { kind: 'reset-after-reply' }
  | { kind: 'delay-reply'; millis: number }
  | { kind: 'stall-mid-body' };

export interface TcpProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /**
   * Where new connections go; `undefined` resets them at once (nothing listening). `host`
   * (kept when omitted) moves them to another host too, e.g. a restarted container's mapping.
   */
  setUpstream(port: number | undefined, host?: string): void;
  /** How many requests got each fault so far (all 0 without `decide`: nothing is framed). */
  counts(): Record<ProxyFault['kind'], number>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1, port 0, in front of the receiver, so the receiver can go away and
 * come back in a new process (on a new port 0), or a restarted container with a new port
 * mapping, while the app keeps one base URL. With no
 * upstream, connections are reset at once, as a host with nothing listening would.
 *
 * Without `decide` it passes bytes through untouched (the bench's outage). With `decide` it is
 * a network-level fault proxy beside the receiver's own fault injection (docs/reliability.md):
 * it frames HTTP/1.1 messages on each keep-alive connection, so a fault hits one request, and
 * `decide(n)` (n = 0, 1, … over all requests) picks it.
 */
export async function startTcpProxy(
  options: {
    upstreamPort?: number;
    /** @default '127.0.0.1' */
    upstreamHost?: string;
    decide?: (requestIndex: number) => ProxyFault;
  } = {},
): Promise<TcpProxy> {
  const decide = options.decide;
  let upstreamPort = options.upstreamPort;
  let upstreamHost = options.upstreamHost ?? '127.0.0.1';
  let requests = 0;
  const counts: Record<ProxyFault['kind'], number> = {
    pass: 0,
    'reset-before-reply': 0,
    'reset-after-reply': 0,
    'delay-reply': 0,
    'stall-mid-body': 0,
  };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((client) => {
    if (upstreamPort === undefined) {
      client.resetAndDestroy();
      return;
    }
    const upstream = netConnect({ port: upstreamPort, host: upstreamHost });
    if (decide === undefined) {
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
      return;
    }
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    const kill = () => {
      if (!client.destroyed) client.resetAndDestroy();
      upstream.destroy();
    };
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => {
      // A stalled answer keeps the client waiting; otherwise the client goes too.
      if (!stalled) client.destroy();
    });

    const pending: ProxyFault[] = [];
    let stalled = false;
    // Answers leave in order even when one of them is delayed.
    let outbound: Promise<void> = Promise.resolve();
    const requestSplitter = new MessageSplitter();
    const answerSplitter = new MessageSplitter();

    /** The whole messages `chunk` completes; none, and both sides reset, if it is not HTTP. */
    const split = (splitter: MessageSplitter, chunk: Buffer): Buffer[] => {
      try {
        return splitter.push(chunk);
      } catch {
        kill();
        return [];
      }
    };
    client.on('data', (chunk: Buffer) => {
      for (const message of split(requestSplitter, chunk)) {
        const fault = decide(requests++);
        counts[fault.kind]++;
        if (fault.kind === 'reset-before-reply') {
          kill();
          return;
        }
        pending.push(fault);
        upstream.write(message);
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      for (const message of split(answerSplitter, chunk)) {
        const fault = pending.shift() ?? { kind: 'pass' };
        outbound = outbound.then(() => deliver(fault, message));
      }
    });

    const deliver = async (fault: ProxyFault, message: Buffer): Promise<void> => {
      if (client.destroyed || stalled) return;
      switch (fault.kind) {
        case 'reset-after-reply':
          kill();
          return;
        case 'stall-mid-body': {
          const head = headLength(message);
          const cut = head + Math.floor((message.length - head) / 2);
          client.write(message.subarray(0, Math.max(head, cut)));
          stalled = true;
          upstream.destroy();
          return;
        }
        case 'delay-reply':
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              timers.delete(timer);
              resolve();
            }, fault.millis);
            timers.add(timer);
          });
          if (!client.destroyed) client.write(message);
          return;
        default:
          client.write(message);
      }
    };
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no proxy address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    setUpstream(port, host) {
      upstreamPort = port;
      if (host !== undefined) upstreamHost = host;
      if (port === undefined) for (const socket of sockets) socket.destroy();
    },
    counts: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
