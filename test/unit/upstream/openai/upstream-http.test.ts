/** The upstream transport: one buffered, bounded, abortable exchange on a keep-alive socket. */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createUpstreamHttp, type UpstreamExchange } from '../../../../src/upstream/openai/upstream-http';

let server: Server | undefined;
let connections = 0;

async function serve(listener: RequestListener): Promise<string> {
  server = createServer(listener);
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
}

function exchange(url: string, overrides: Partial<UpstreamExchange> = {}): UpstreamExchange {
  return { url, method: 'POST', headers: new Headers({ 'content-type': 'application/json' }), body: '{"model":"m"}', signal: undefined, ...overrides };
}

beforeEach(() => {
  connections = 0;
});

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('createUpstreamHttp', () => {
  test('when the upstream answers, then its status, headers and whole body come back, and it got the method, headers and body', async () => {
    let received: { method?: string; type?: string; body: string } = { body: '' };
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received = { method: req.method, type: req.headers['content-type'], body };
        res.writeHead(201, 'Made', { 'x-request-id': 'up-1', 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });

    const answer = await createUpstreamHttp()(exchange(url));

    expect(received).toEqual({ method: 'POST', type: 'application/json', body: '{"model":"m"}' });
    expect(answer.status).toBe(201);
    expect(answer.statusText).toBe('Made');
    expect(answer.headers.get('x-request-id')).toBe('up-1');
    expect(answer.body.toString()).toBe('{"ok":true}');
  });

  test('when calls follow one another, then they share one kept-alive connection', async () => {
    const url = await serve((_req, res) => res.end('{}'));
    const send = createUpstreamHttp();

    for (let call = 0; call < 3; call++) await send(exchange(url));

    expect(connections).toBe(1);
  });

  test('when the answer is gzip-compressed, then the body comes back decoded, without its encoding headers', async () => {
    const url = await serve((_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"ok":true}')));

    const answer = await createUpstreamHttp()(exchange(url));

    expect(answer.body.toString()).toBe('{"ok":true}');
    expect(answer.headers.get('content-encoding')).toBeNull();
  });

  test('when the answer is larger than the bound, then the exchange fails and says so', async () => {
    const url = await serve((_req, res) => res.end('x'.repeat(2048)));

    await expect(createUpstreamHttp(1024)(exchange(url))).rejects.toThrow('the upstream answer is larger than 1024 bytes');
  });

  test('when a compressed answer is larger than the bound once decoded, then the exchange fails and says so', async () => {
    const url = await serve((_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('x'.repeat(4096))));

    await expect(createUpstreamHttp(1024)(exchange(url))).rejects.toThrow('the upstream answer is larger than 1024 bytes');
  });

  test('when the signal aborts while the body is still coming, then the exchange fails with an AbortError and the socket is closed', async () => {
    let socketClosed: Promise<unknown> | undefined;
    const url = await serve((req, res) => {
      socketClosed = once(req.socket, 'close');
      res.writeHead(200).write('{"partial":');
    });
    const controller = new AbortController();
    const pending = createUpstreamHttp()(exchange(url, { signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 50));

    controller.abort();

    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await socketClosed;
  });

  test('when the signal has already aborted, then nothing is sent', async () => {
    const url = await serve((_req, res) => res.end('{}'));

    await expect(createUpstreamHttp()(exchange(url, { signal: AbortSignal.abort() }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(connections).toBe(0);
  });

  test('when the upstream redirects, then the redirect is the answer (never followed with the key)', async () => {
    const url = await serve((_req, res) => res.writeHead(307, { location: 'http://127.0.0.1:9/elsewhere' }).end());

    const answer = await createUpstreamHttp()(exchange(url));

    expect(answer.status).toBe(307);
  });

  test('when nothing listens, then the exchange fails with the connection error', async () => {
    const url = await serve((_req, res) => res.end('{}'));
    await new Promise((resolve) => server?.close(resolve));

    await expect(createUpstreamHttp()(exchange(url))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
