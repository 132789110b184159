/**
 * The `fetch` the SDK sends with: undici's `request` (its plain HTTP client) behind the
 * `fetch` signature the SDK's `fetch` option asks for. undici's own `fetch` runs the
 * whole WHATWG fetch algorithm (Request objects, web streams for both bodies) for what
 * is one JSON POST and one JSON answer: `make bench` measured it at about two thirds of
 * the service's CPU spent on an upstream call (docs/decisions.md).
 *
 * What it keeps of fetch, because the SDK relies on it: the answer is a real `Response`
 * (status, headers, `json()`, `text()`), the signal aborts the call, and redirects are
 * not followed (undici's `request` never follows one). What differs, on purpose: the
 * body is read in full before the `Response` is returned (the SDK reads every answer in
 * full: the service makes no streaming calls), so an answer cut short or too large fails
 * as the attempt itself, and no `Accept-Encoding` is sent (a server that compresses
 * anyway is decoded by the agent's interceptor, upstream-agent.ts). Only the bodies the
 * SDK sends for JSON calls (a string) are accepted.
 */
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
  const bytes = await answer.body.arrayBuffer();
  return new Response(NULL_BODY_STATUSES.has(answer.statusCode) ? null : bytes, { status: answer.statusCode, headers: headersOf(answer.headers) });
}

/** The answer's headers as the `Response` takes them: a repeated header's values joined, as `Headers` would. */
function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}
