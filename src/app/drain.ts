/**
 * How a listener drains on shutdown so that no connection it accepted is reset:
 *
 * - It stops accepting only once the kernel's accept queue is empty: closing a listening
 *   socket resets every connection still queued there, and a busy process lags behind
 *   (a lone process under load had 2–47 connections queued when SIGTERM came, in the
 *   drain test). So it waits for a whole turn of the event loop, its I/O included, that
 *   accepts nothing (the listening socket is polled in that turn, so nothing was
 *   queued), at most LINGER_MS. (Node 20's own close() is fine for
 *   the rest: the connections it closes at once are those that have answered and are
 *   idle; one accepted but not yet read counts as active, not idle.)
 * - Every request that arrives from then on is answered with `Connection: close` (the
 *   public API answers it `503` with `Retry-After`: http/admission.ts, told by
 *   `isDraining`); a request in flight is answered normally, with `Connection: close` if
 *   its headers are not sent yet.
 * - A connection that has answered and is idle is closed at once (and one in flight as
 *   soon as it has answered); one that has not sent its first request gets
 *   FIRST_REQUEST_MS to do so, and is closed after that.
 * - After `timeoutMs` every connection left is cut.
 */
import type { Server, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection accepted before or during the drain has to send its first request. */
export const FIRST_REQUEST_MS = 10_000;
/** A listener stops accepting at the latest this long after the drain began. */
export const LINGER_MS = 5_000;

interface Connection {
  /** Requests seen on it. */
  requests: number;
  /** Responses not yet finished. */
  open: Set<ServerResponse>;
  firstRequestTimer?: NodeJS.Timeout;
}

export class ConnectionDrain {
  private readonly connections = new Map<Socket, Connection>();
  private draining = false;
  /** Connections accepted so far. */
  private accepted = 0;
  private server: Server | undefined;

  /** True from the start of the drain: new requests are answered with `Connection: close`. */
  readonly isDraining = (): boolean => this.draining;

  /** Registers its listeners: before the app's `request` listener. */
  attach(server: Server): void {
    this.server = server;
    server.on('connection', (socket: Socket) => {
      this.accepted += 1;
      const connection: Connection = { requests: 0, open: new Set() };
      this.connections.set(socket, connection);
      socket.once('close', () => {
        clearTimeout(connection.firstRequestTimer);
        this.connections.delete(socket);
      });
      if (this.draining) this.awaitFirstRequest(socket, connection);
    });
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.onRequest(req.socket, res));
  }

  /** Resolves when the listener is closed and every connection is closed (the last ones cut after `timeoutMs`). */
  drain(timeoutMs: number): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    this.draining = true;
    const closed = new Promise<void>((resolve) => {
      this.whenNothingQueued(() => server.close(() => resolve()));
    });
    for (const [socket, connection] of this.connections) {
      if (connection.requests === 0) this.awaitFirstRequest(socket, connection);
      else if (connection.open.size === 0) socket.destroy();
      for (const res of connection.open) if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    const cut = setTimeout(() => server.closeAllConnections(), timeoutMs);
    return closed.finally(() => clearTimeout(cut));
  }

  private onRequest(socket: Socket, res: ServerResponse): void {
    const connection = this.connections.get(socket);
    if (!connection) return;
    connection.requests += 1;
    clearTimeout(connection.firstRequestTimer);
    connection.open.add(res);
    if (this.draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      connection.open.delete(res);
      // Answered on a connection kept alive: nothing more will be read from it.
      if (this.draining && connection.open.size === 0 && !socket.destroyed) setImmediate(() => connection.open.size === 0 && socket.destroy());
    });
  }

  private awaitFirstRequest(socket: Socket, connection: Connection): void {
    connection.firstRequestTimer ??= setTimeout(() => {
      if (connection.requests === 0) socket.destroy();
    }, FIRST_REQUEST_MS);
  }

  /**
   * Calls `close` once a whole turn of the loop (setImmediate to setImmediate: a poll of
   * I/O lies between) accepted nothing, or after LINGER_MS.
   */
  private whenNothingQueued(close: () => void): void {
    const started = performance.now();
    let seen = -1;
    const turn = () =>
      setImmediate(() => {
        if (this.accepted === seen || performance.now() - started >= LINGER_MS) return close();
        seen = this.accepted;
        turn();
      });
    turn();
  }
}
