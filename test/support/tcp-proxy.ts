/**
 * A TCP proxy on 127.0.0.1, port 0, in front of a real service (PostgreSQL, Redis), so a
 * test can make that service vanish for one server only: `close()` stops listening and
 * cuts every connection, and the service itself keeps running for everyone else.
 * `cutAt(marker, …)` cuts the one connection that sends `marker` (e.g. a statement's
 * text), with or without delivering it first: a COMMIT whose answer is lost, or a
 * statement that never arrived. `delayNewConnections(ms)` holds each new connection
 * silent for that long before it is connected through (Infinity: a black hole that
 * accepts and never answers), `delayReplies(ms)` holds every chunk the service sends
 * back for that long (in order: a slow service that still answers), `silenceAt(marker, …)`
 * delivers the statement that sends `marker` and drops every answer on its connection from
 * then on (a network gone silent mid-statement, the socket left open), and `cutAll()` cuts
 * the connections open now.
 */
import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** The URL with its host and port replaced by the proxy's. */
  url: string;
  /**
   * The next client packet holding `marker` cuts its connection. `deliver: true` passes
   * the packet on and lets PostgreSQL finish the statement (its answer never reaches the
   * client: the connection is cut when PostgreSQL is ready for the next query);
   * `deliver: false` drops it. Resolves when the cut is made.
   */
  cutAt(marker: string, options: { deliver: boolean }): Promise<void>;
  /** New connections wait `ms` before they reach the service (Infinity: never); 0 again to heal. */
  delayNewConnections(ms: number): void;
  /** Each chunk the service sends back reaches the client `ms` later, in order; 0 again to heal. */
  delayReplies(ms: number): void;
  /**
   * The next client packet holding `marker` is delivered, and its connection answers
   * nothing from then on (PostgreSQL's replies are dropped, the socket stays open).
   * Resolves when the client closes that connection.
   */
  silenceAt(marker: string): Promise<void>;
  /** Cuts every connection open now; the proxy keeps listening. */
  cutAll(): void;
  close(): Promise<void>;
}

/**
 * PostgreSQL's ReadyForQuery message ('Z', length 5): sent once a statement and its
 * implicit transaction are over, so a delivered statement has committed (or failed) by then.
 */
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5]);

interface Cut {
  marker: string;
  deliver: boolean;
  done: () => void;
}

interface Silence {
  marker: string;
  closed: () => void;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let armed: Cut | undefined;
  let silence: Silence | undefined;
  let connectDelayMs = 0;
  let replyDelayMs = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (connectDelayMs === Infinity) return;
    if (connectDelayMs > 0) {
      client.pause();
      const timer = setTimeout(() => {
        if (client.destroyed) return;
        connectThrough(client);
        client.resume();
      }, connectDelayMs);
      client.once('close', () => clearTimeout(timer));
      return;
    }
    connectThrough(client);
  });
  const connectThrough = (client: Socket) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    track(upstream);
    const cutBoth = (cut: Cut) => {
      client.destroy();
      upstream.destroy();
      cut.done();
    };
    /** A delivered cut: PostgreSQL's answers are swallowed until it is ready again, then both ends close. */
    let swallowing: Cut | undefined;
    let silent = false;
    client.on('data', (chunk: Buffer) => {
      if (silence && chunk.includes(silence.marker)) {
        silent = true;
        client.once('close', silence.closed);
        silence = undefined;
      }
      const cut = armed && chunk.includes(armed.marker) ? armed : undefined;
      if (cut) {
        armed = undefined;
        if (!cut.deliver) return cutBoth(cut);
        swallowing = cut;
      }
      upstream.write(chunk);
    });
    /** Held reply chunks, each with when it is due, sent in order by one timer at a time. */
    const held: Array<{ chunk: Buffer; dueAt: number }> = [];
    const sendDue = () => {
      while (held.length > 0 && (held[0]?.dueAt ?? 0) <= Date.now()) client.write((held.shift() as { chunk: Buffer }).chunk);
      if (held.length > 0) setTimeout(sendDue, (held[0]?.dueAt ?? 0) - Date.now());
    };
    const reply = (chunk: Buffer) => {
      if (replyDelayMs === 0 && held.length === 0) return void client.write(chunk);
      held.push({ chunk, dueAt: Date.now() + replyDelayMs });
      if (held.length === 1) setTimeout(sendDue, replyDelayMs);
    };
    upstream.on('data', (chunk: Buffer) => {
      if (silent) return;
      if (!swallowing) reply(chunk);
      else if (chunk.includes(READY_FOR_QUERY)) cutBoth(swallowing);
    });
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  };
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
    silenceAt: (marker) => new Promise<void>((resolve) => (silence = { marker, closed: resolve })),
    delayNewConnections: (ms) => {
      connectDelayMs = ms;
    },
    delayReplies: (ms) => {
      replyDelayMs = ms;
    },
    cutAll: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
