/**
 * The `fetch` the SDK sends with: undici's `request` (its plain HTTP client) behind the
 * `fetch` signature of the SDK's `fetch` option. undici's own `fetch` runs the whole
 * WHATWG fetch algorithm for each call and hands every chunk of a streamed answer through
 * a Node stream, an async iterator and a web stream in turn; behind the same `Agent`,
 * `request` reads the same streamed answer for about 0.5 ms less CPU a call
 * (docs/decisions.md, "The upstream's fetch").
 *
 * What it keeps of fetch, because the SDK and stream-completion.ts rely on it: the
 * answer is a real `Response` (status, headers, a body read as it arrives, `json()`,
 * `text()`), the signal aborts the call, and redirects are not followed (`request` never
 * follows one). What differs: an error while the body is read is undici's own
 * (`UND_ERR_SOCKET` for a lost connection, attempt-failure.ts), not fetch's "terminated";
 * no `Accept-Encoding` is sent (a server that compresses anyway is decoded by the agent's
 * interceptor, upstream-agent.ts). Only the bodies the SDK sends for JSON calls (a
 * string) are accepted.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { request, type Dispatcher } from 'undici';

/** What the SDK passes: its request, and the per-attempt `dispatcher` given through `fetchOptions`. */
export type RequestFetchInit = RequestInit & { dispatcher?: Dispatcher };

/** Statuses whose `Response` may carry no body (the Fetch standard's "null body status"). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

export async function requestFetch(input: string | URL | Request, init: RequestFetchInit = {}): Promise<Response> {
  if (input instanceof Request) throw new TypeError('upstream fetch: a Request object is not supported, only a URL');
  const { body } = init;
  if (body !== undefined && body !== null && typeof body !== 'string') throw new TypeError('upstream fetch: only a string body is supported');
  const answer = await request(input, {
    method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
    headers: init.headers as Iterable<[string, string]> | Record<string, string> | undefined,
    body: body ?? undefined,
    signal: init.signal ?? undefined,
    dispatcher: init.dispatcher,
  });
  const responseInit = { status: answer.statusCode, headers: headersOf(answer.headers) };
  if (NULL_BODY_STATUSES.has(answer.statusCode)) {
    answer.body.resume();
    return new Response(null, responseInit);
  }
  return new Response(Readable.toWeb(answer.body) as WebReadableStream<Uint8Array> as ReadableStream<Uint8Array>, responseInit);
}

/** The answer's headers as the `Response` takes them: a repeated header's values joined, as `Headers` would. */
function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}
