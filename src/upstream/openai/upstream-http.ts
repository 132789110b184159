/**
 * One HTTP exchange with the upstream, on node:http(s) rather than the global fetch:
 * the whole answer, buffered, or an error. Under a burst of calls, fetch's web streams
 * and per-request machinery were a fifth of the service's CPU; a plain request with a
 * keep-alive Agent costs a fraction of that.
 *
 * - The Agent keeps sockets alive and sets no cap: every call in flight has its own
 *   socket (a thousand at once opens a thousand), reused by the calls after it.
 * - The answer is read whole and bounded (`maxResponseBytes`): a larger one is cut
 *   and fails like a broken connection. No `accept-encoding` is sent; a compressed
 *   answer is decoded all the same, under the same bound once decoded.
 * - `signal` aborts the exchange at any point, body included, with an `AbortError`
 *   (what the SDK expects of fetch when its timeout or its caller aborts).
 * - A redirect is not followed: it is the answer (the SDK fails it as it would a 4xx).
 *   The configured base URL is the upstream; the key is never sent anywhere else.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib';

export interface UpstreamAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
}

export interface UpstreamExchange {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal | undefined;
}

export type SendUpstream = (exchange: UpstreamExchange) => Promise<UpstreamAnswer>;

/** Far above any answer within the output-token bounds. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

const DECODERS: Record<string, (body: Buffer, options: ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** How a request goes out for each scheme: its function and its Agent. */
interface Transport {
  request: typeof httpRequest;
  agent: HttpAgent;
}

/** A sender with keep-alive Agents of its own (one per upstream client). */
export function createUpstreamHttp(maxResponseBytes = MAX_RESPONSE_BYTES): SendUpstream {
  const transports: Record<string, Transport> = {
    'http:': { request: httpRequest, agent: new HttpAgent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' }) },
    'https:': { request: httpsRequest, agent: new HttpsAgent({ keepAlive: true, maxSockets: Infinity, scheduling: 'lifo' }) },
  };
  return async (exchange) => {
    const url = new URL(exchange.url);
    const transport = transports[url.protocol];
    if (!transport) throw new TypeError(`upstream URL scheme not supported: ${url.protocol}`);
    const answer = await exchangeOnce(url, transport, exchange, maxResponseBytes);
    const encoding = answer.headers.get('content-encoding')?.trim().toLowerCase();
    const decode = encoding ? DECODERS[encoding] : undefined;
    if (!decode) return answer;
    const headers = new Headers(answer.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    const body = await decode(answer.body, { maxOutputLength: maxResponseBytes }).catch((err: unknown) => {
      throw (err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge(maxResponseBytes) : err;
    });
    return { ...answer, headers, body };
  };
}

function exchangeOnce(url: URL, transport: Transport, exchange: UpstreamExchange, maxResponseBytes: number): Promise<UpstreamAnswer> {
  const { signal } = exchange;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const headers: Record<string, string> = Object.fromEntries(exchange.headers);
    if (exchange.body !== undefined) headers['content-length'] = String(Buffer.byteLength(exchange.body));
    const request = transport.request(url, { method: exchange.method, headers, agent: transport.agent });
    const onAbort = () => request.destroy(abortError());
    signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (err: Error) => settle(() => reject(err));
    request.on('error', fail);
    request.once('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('error', fail);
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        chunks.push(chunk);
        if (size <= maxResponseBytes) return;
        fail(tooLarge(maxResponseBytes));
        request.destroy();
      });
      response.once('end', () =>
        settle(() =>
          resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers: headersOf(response), body: Buffer.concat(chunks, size) }),
        ),
      );
    });
    request.end(exchange.body);
  });
}

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

function tooLarge(maxResponseBytes: number): Error {
  return new Error(`the upstream answer is larger than ${maxResponseBytes} bytes`);
}

function abortError(): DOMException {
  return new DOMException('This operation was aborted', 'AbortError');
}
