import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP forwarder on 127.0.0.1 port 0 in front of the receiver, so the receiver can go away
 * and come back in a new process (on a new port 0) while the app keeps one base URL. With no
 * upstream, connections are reset at once, as a host with nothing listening would.
 */
export interface TcpProxy {
  readonly url: string;
  setUpstream(port: number | undefined): void;
  close(): Promise<void>;
}

export async function startTcpProxy(): Promise<TcpProxy> {
  let upstream: number | undefined;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    if (upstream === undefined) {
      client.resetAndDestroy();
      return;
    }
    const target = connect({ port: upstream, host: '127.0.0.1' });
    for (const socket of [client, target]) {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        target.destroy();
      });
    }
    client.pipe(target).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    setUpstream(next) {
      upstream = next;
      if (next === undefined) for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
