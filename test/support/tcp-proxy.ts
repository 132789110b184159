/**
 * A TCP proxy on 127.0.0.1, port 0, in front of a real service (PostgreSQL, Redis), so a
 * test can make that service vanish for one server only: `close()` stops listening and
 * cuts every connection, and the service itself keeps running for everyone else.
 * `cutAt(marker, …)` cuts the one connection that sends `marker` (e.g. a statement's
 * text), with or without delivering it first: a COMMIT whose answer is lost, or a
 * statement that never arrived.
 */
import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** The URL with its host and port replaced by the proxy's. */
  url: string;
  /**
   * The next client packet holding `marker` cuts its connection. `deliver: true` passes
   * the packet on first and lets the service finish it (its answer never reaches the
   * client); `deliver: false` drops it. Resolves when the cut is made.
   */
  cutAt(marker: string, options: { deliver: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** How long the service side stays open after a delivered packet, to finish and commit it. */
const FINISH_MS = 500;

interface Cut {
  marker: string;
  deliver: boolean;
  done: () => void;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let armed: Cut | undefined;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    track(client);
    track(upstream);
    let finishing = false;
    client.on('data', (chunk: Buffer) => {
      const cut = armed && chunk.includes(armed.marker) ? armed : undefined;
      if (!cut) {
        upstream.write(chunk);
        return;
      }
      armed = undefined;
      client.destroy();
      if (cut.deliver) {
        finishing = true;
        upstream.write(chunk);
        setTimeout(() => upstream.destroy(), FINISH_MS);
      } else {
        upstream.destroy();
      }
      cut.done();
    });
    upstream.pipe(client);
    client.once('close', () => {
      if (!finishing) upstream.destroy();
    });
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
    cutAt: (marker, { deliver }) => new Promise<void>((resolve) => (armed = { marker, deliver, done: resolve })),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
