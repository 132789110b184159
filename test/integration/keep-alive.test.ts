/**
 * An idle connection is kept longer than the proxies in front keep theirs (60 s for
 * ingress-nginx's upstream keep-alive and AWS ALB), so that the service never closes one
 * a proxy is about to send a request on (src/app/server.ts): each answer tells the client
 * how long, in `Keep-Alive: timeout=…`.
 */
import { connect } from 'node:net';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

/** The head of the answer to one keep-alive request on a raw connection (bounded: 30 s). */
function answerHead(request: string): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    const bound = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 30 s; received: ${received}`));
    }, 30_000);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      clearTimeout(bound);
      socket.destroy();
      resolve(received.slice(0, end));
    });
    socket.on('error', reject);
    socket.write(request);
  });
}

test('when a client keeps its connection alive, then the service says it keeps it idle for 65 s, longer than a proxy in front', async () => {
  const head = await answerHead('GET /docs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
  expect(head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  expect(head.toLowerCase()).toContain('\r\nkeep-alive: timeout=65');
});
