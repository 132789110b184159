/** Step 1 of the request path: the request id, and one access log line per response. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { requestLog } from '../../../src/http/request-log';
import { createLogger } from '../../../src/support/logger';

interface Line {
  level: number;
  msg: string;
  req?: { id: string; method: string; path: string; pathLength?: number };
  res?: { statusCode: number };
  responseTime?: number;
}

async function call(level: string, status: number, headers: Record<string, string> = {}, path = '/api/v1/thing'): Promise<{ response: Response; lines: Line[] }> {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Line);
      done();
    },
  });
  const app = express();
  app.use(requestLog(createLogger(level, sink)));
  let closed: Promise<unknown> = Promise.resolve();
  app.use((_req, res) => {
    // Registered after requestLog's own 'close' listener, so it runs once the line is written.
    closed = once(res, 'close');
    res.status(status).json({ ok: status < 400 });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}?secret=query`, { headers });
    await response.text();
    // The line is written when the response closes: that event is waited for (a 2xx under `warn` writes none).
    await closed;
    return { response, lines };
  } finally {
    server.close();
  }
}

describe('requestLog', () => {
  test('when a request sends a sane X-Request-Id, then the response echoes it and the access line names it, without the query', async () => {
    const { response, lines } = await call('info', 200, { 'x-request-id': 'client-id.42' });

    expect(response.headers.get('x-request-id')).toBe('client-id.42');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'request completed', req: expect.objectContaining({ id: 'client-id.42', method: 'GET', path: '/api/v1/thing' }), res: { statusCode: 200 } }),
    ]);
  });

  test('when the X-Request-Id is not sane, then a generated id replaces it', async () => {
    const { response } = await call('info', 200, { 'x-request-id': 'bad id with spaces' });

    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('when the response is a 5xx, then its line is logged as an error', async () => {
    const { lines } = await call('info', 503);

    expect(lines).toEqual([expect.objectContaining({ level: 50, res: { statusCode: 503 } })]);
  });

  test('when the level is above info, then a 2xx writes no line and a 5xx still does', async () => {
    expect((await call('warn', 200)).lines).toEqual([]);
    expect((await call('warn', 500)).lines).toHaveLength(1);
  });

  test('when the path is longer than 200 characters, then the line holds its first 200 and its length', async () => {
    const path = `/${'a'.repeat(4999)}`;

    const { lines } = await call('info', 404, {}, path);

    expect(lines).toEqual([expect.objectContaining({ req: expect.objectContaining({ path: path.slice(0, 200), pathLength: 5000 }) })]);
  });

  test('when the path is 200 characters or fewer, then the line holds it whole, without a length', async () => {
    const path = `/${'a'.repeat(199)}`;

    const { lines } = await call('info', 404, {}, path);

    expect(lines[0]?.req).toEqual(expect.objectContaining({ path }));
    expect(lines[0]?.req).not.toHaveProperty('pathLength');
  });
});
