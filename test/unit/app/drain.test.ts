/**
 * ConnectionDrain on a real HTTP server on 127.0.0.1 (a connection's life is the kernel's
 * and Node's, so nothing is faked): a connection accepted before the drain and silent
 * until after it starts is answered, never reset; one in flight is answered normally.
 * (The accept queue's part, on the built service: test/integration/drain.test.ts.)
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { ConnectionDrain } from '../../../src/app/drain';

async function listening(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Connects, waits until the server has the connection, and resolves with whatever the server sends until it closes. */
async function silentConnection(server: Server, port: number): Promise<{ socket: Socket; received: Promise<string> }> {
  const accepted = once(server, 'connection');
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  const received = new Promise<string>((resolve) => {
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(`error ${err.code ?? err.message}`));
    socket.on('close', () => resolve(text));
  });
  await Promise.all([once(socket, 'connect'), accepted]);
  return { socket, received };
}

const REQUEST = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

describe('ConnectionDrain', () => {
  test('when a drain starts, then a connection accepted before it and sending its request after it gets an answer with Connection: close, and the drain ends', async () => {
    const drain = new ConnectionDrain();
    const server = createServer();
    drain.attach(server);
    server.on('request', (_req, res) => res.end(drain.isDraining() ? 'draining' : 'serving'));
    const port = await listening(server);
    const { socket, received } = await silentConnection(server, port);
    const drained = drain.drain(30_000);
    socket.write(REQUEST);
    const answer = await received;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer).toMatch(/draining$/);
    await drained;
    expect(server.listening).toBe(false);
  });

  test('when a drain starts during a request, then that request is answered normally with Connection: close', async () => {
    const drain = new ConnectionDrain();
    const server = createServer();
    drain.attach(server);
    let release: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      server.on('request', (_req, res) => {
        release = () => res.end('done');
        resolve();
      });
    });
    const port = await listening(server);
    const { socket, received } = await silentConnection(server, port);
    socket.write(REQUEST);
    await arrived;
    const drained = drain.drain(30_000);
    release();
    const answer = await received;
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer).toMatch(/done$/);
    await drained;
  });
});
