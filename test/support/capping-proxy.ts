/**
 * An HTTP proxy on 127.0.0.1, port 0, in front of an OpenAI-compatible server (llama.cpp's),
 * that lowers each request's output bound (`max_tokens`, `max_completion_tokens`) to `cap`
 * and passes everything else through, both ways. The service's own bounds must fit the
 * answers its schemas allow (start-up refuses less), so a test that needs the model itself
 * to stop at `length` caps the bound on the way instead; llama.cpp's server-side
 * `--n-predict` does not (a request's own bound overrides it).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CappingProxy {
  /** The OpenAI-compatible base URL (`…/v1`) through the proxy. */
  baseURL: string;
  close(): Promise<void>;
}

export async function startCappingProxy(targetBaseURL: string, cap: number): Promise<CappingProxy> {
  const target = new URL(targetBaseURL);
  const server = createServer((request, response) => {
    const upstream = new AbortController();
    response.on('close', () => upstream.abort());
    void (async () => {
      try {
        const body = await capped(request, cap);
        const answer = await fetch(new URL(request.url ?? '/', target.origin), {
          method: request.method,
          headers: { 'content-type': 'application/json', authorization: request.headers.authorization ?? '' },
          body,
          signal: upstream.signal,
        });
        response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        response.end(Buffer.from(await answer.arrayBuffer()));
      } catch {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      }
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${target.pathname}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function capped(request: IncomingMessage, cap: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
  for (const key of ['max_tokens', 'max_completion_tokens']) if (key in body) body[key] = Math.min(Number(body[key]), cap);
  return JSON.stringify(body);
}
