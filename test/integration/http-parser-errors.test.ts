/**
 * Errors that Node's HTTP server answers itself, before the service sees the request (the
 * spec's "Errors" section): 408 when a request has not fully arrived within
 * REQUEST_TIMEOUT_SECONDS, 431 for headers over 16 KiB, 400 for a request that is not
 * HTTP. No envelope, no X-RateLimit-* headers, and the connection is closed.
 */
import { connect } from 'node:net';
import { createAccount } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  // One second, so that the test waits for the 408 and not for the 30 s default.
  server = await startTestServer({ REQUEST_TIMEOUT_SECONDS: '1' });
});

afterAll(async () => {
  await server.close();
});

/** Writes `request` on a raw connection and resolves to all the server sent before it closed (bounded: 30 s). */
function exchange(request: string): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const bound = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not answer and close within 30 s; it sent: ${Buffer.concat(chunks).toString('latin1')}`));
    }, 30_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer still ends in 'close'
    socket.on('close', () => {
      clearTimeout(bound);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.write(request);
  });
}

function expectBareAnswer(answer: string, statusLine: string): void {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  expect(head.split('\r\n')[0]).toBe(statusLine);
  expect(head.toLowerCase()).not.toContain('x-ratelimit');
  expect(head.toLowerCase()).toContain('connection: close');
  expect(body).toBe('');
}

describe("errors Node's HTTP server answers itself", () => {
  test('when a request body does not arrive within REQUEST_TIMEOUT_SECONDS, then the server answers a bare 408 and closes the connection', async () => {
    // A real key, so that the service reads on past authentication and waits for the body.
    const { apiKey } = await createAccount(server, 1);
    const head = `POST /api/v1/snap HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    expectBareAnswer(await exchange(`${head}{"name": "Ada`), 'HTTP/1.1 408 Request Timeout');
  });

  test('when the request headers are larger than 16 KiB, then the server answers a bare 431', async () => {
    const request = `POST /api/v1/snap HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ${'x'.repeat(17 * 1024)}\r\n\r\n`;
    expectBareAnswer(await exchange(request), 'HTTP/1.1 431 Request Header Fields Too Large');
  });

  test('when the request is not HTTP, then the server answers a bare 400', async () => {
    expectBareAnswer(await exchange('HELLO THERE\r\n\r\n'), 'HTTP/1.1 400 Bad Request');
  });
});
