/**
 * A TCP proxy on 127.0.0.1, port 0, in front of a real service (PostgreSQL, Redis), so a
 * test can make that service vanish for one server only: `close()` stops listening and
 * cuts every connection, and the service itself keeps running for everyone else.
 */
import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** The URL with its host and port replaced by the proxy's. */
  url: string;
  close(): Promise<void>;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
