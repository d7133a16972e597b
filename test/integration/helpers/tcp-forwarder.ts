import { connect, createServer, type Socket } from 'node:net';

export interface TcpForwarder {
  /** `http://127.0.0.1:<port>`: a stable address in front of a container whose port moves. */
  url: string;
  /** Where new connections go from now on. */
  retarget(host: string, port: number): void;
  close(): Promise<void>;
}

/**
 * A TCP forwarder on a free local port. A restarted container gets a new host port mapping;
 * the exporter keeps one base URL, so it talks to this forwarder, which follows the container.
 */
export async function startTcpForwarder(host: string, port: number): Promise<TcpForwarder> {
  let target = { host, port };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    // Either side failing ends both, as a dropped connection would.
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no forwarder address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    retarget(nextHost, nextPort) {
      target = { host: nextHost, port: nextPort };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
