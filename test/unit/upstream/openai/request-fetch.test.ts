/**
 * The SDK's `fetch` over undici's `request` (request-fetch.ts), against a real local
 * HTTP server: what the SDK reads of a `Response`, a body read as it arrives (as a web
 * stream, or as the Node stream beside it), the signal, and the bodies it refuses.
 * The SDK's own use of it (errors, redirects, bounds) is in upstream-agent.test.ts and
 * the predictor tests.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeBodyResponse, requestFetch } from '../../../../src/upstream/openai/request-fetch';
import { until } from '../../../support/until';

describe('requestFetch', () => {
  let server: Server;
  let url: string;
  let handle: (req: IncomingMessage, res: ServerResponse) => void;
  const received: Array<{ method?: string; headers: IncomingMessage['headers']; body: string }> = [];

  beforeEach(async () => {
    received.length = 0;
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        handle(req, res);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('when the server answers, then the Response has its status, every header value and the whole body, and the request went as given', async () => {
    handle = (_, res) => {
      res.writeHead(429, [['content-type', 'application/json'], ['x-request-id', 'req_1'], ['x-seen', 'one'], ['x-seen', 'two']]);
      res.end('{"error":{"message":"slow down"}}');
    };

    const response = await requestFetch(url, { method: 'POST', headers: new Headers({ authorization: 'Bearer sk-test', 'content-type': 'application/json' }), body: '{"model":"m"}' });

    expect(response.status).toBe(429);
    expect(response.ok).toBe(false);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(response.headers.get('x-seen')).toBe('one, two');
    await expect(response.json()).resolves.toEqual({ error: { message: 'slow down' } });
    expect(received).toEqual([expect.objectContaining({ method: 'POST', body: '{"model":"m"}', headers: expect.objectContaining({ authorization: 'Bearer sk-test' }) })]);
    expect(received[0]?.headers['accept-encoding']).toBeUndefined();
  });

  test('when the server streams its answer, then the body gives each chunk as it arrives, before the answer ends', async () => {
    let finish = (): void => undefined;
    handle = (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      finish = () => res.end('data: [DONE]\n\n');
    };

    const response = await requestFetch(url, { method: 'POST', body: '{}' });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    finish();

    expect(new TextDecoder().decode(first?.value)).toBe('data: first\n\n');
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe('data: [DONE]\n\n');
    expect((await reader?.read())?.done).toBe(true);
  });

  test('when the answer streams, then its Node stream is given beside the web body, and it holds every chunk while the web body is unread', async () => {
    handle = (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      res.end('data: [DONE]\n\n');
    };

    const response = await requestFetch(url, { method: 'POST', body: '{}' });

    expect(response).toBeInstanceOf(NodeBodyResponse);
    const chunks: Buffer[] = [];
    for await (const chunk of (response as NodeBodyResponse).nodeBody) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString('utf8')).toBe('data: first\n\ndata: [DONE]\n\n');
  });

  test('when the web body is cancelled before it is read, then the call ends and its connection is closed', async () => {
    const closed = new Promise<void>((resolve) => {
      handle = (req, res) => {
        req.socket.once('close', () => resolve());
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
      };
    });
    const response = await requestFetch(url, { method: 'POST', body: '{}' });

    await response.body?.cancel(new Error('not wanted'));

    await closed;
    expect((response as NodeBodyResponse).nodeBody.destroyed).toBe(true);
  });

  test('when the connection is lost while the body is read, then reading fails with undici\'s socket error (UND_ERR_SOCKET)', async () => {
    handle = (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n', () => res.socket?.destroy());
    };

    const response = await requestFetch(url, { method: 'POST', body: '{}' });

    await expect(response.text()).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  });

  test('when the answer is 204, then the Response has no body', async () => {
    handle = (_, res) => {
      res.writeHead(204);
      res.end();
    };

    const response = await requestFetch(url, { method: 'POST', body: '{}' });

    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  test('when the signal aborts while the server has not answered, then the call rejects with the abort and the connection is closed', async () => {
    const closed = new Promise<void>((resolve) => {
      handle = (req) => req.socket.once('close', () => resolve());
    });
    const controller = new AbortController();
    const call = requestFetch(url, { method: 'POST', body: '{}', signal: controller.signal });
    await until(() => received.length === 1, 60_000);

    controller.abort(new Error('deadline'));

    await expect(call).rejects.toThrow('deadline');
    await closed;
  });

  test.each([
    ['a stream body', { body: new ReadableStream() }],
    ['a binary body', { body: new Uint8Array([1]) }],
  ])('when given %s, then it refuses it before sending anything', async (_, init) => {
    await expect(requestFetch(url, { method: 'POST', ...init })).rejects.toThrow('upstream fetch: only a string body is supported');
    expect(received).toHaveLength(0);
  });

  test('when given a Request object, then it refuses it', async () => {
    await expect(requestFetch(new Request(url))).rejects.toThrow('upstream fetch: a Request object is not supported, only a URL');
  });
});

