/**
 * The `fetch` the SDK sends with: undici's `request` (its plain HTTP client) behind the
 * `fetch` signature of the SDK's `fetch` option. undici's own `fetch` runs the whole
 * WHATWG fetch algorithm for each call and hands every chunk of a streamed answer through
 * a Node stream, an async iterator and a web stream in turn; behind the same `Agent`,
 * `request` reads the same streamed answer for about 0.5 ms less CPU a call
 * (docs/decisions.md, "The upstream's fetch").
 *
 * What it keeps of fetch, because the SDK relies on it: the answer is a real `Response`
 * (status, headers, a body read as it arrives, `json()`, `text()`), the signal aborts the
 * call, and redirects are not followed (`request` never follows one). The `Response` also
 * gives undici's body as the Node stream it is (`NodeBodyResponse`): stream-completion.ts
 * reads a streamed answer from it, which spares each chunk a copy into a web stream and a
 * promise (docs/decisions.md, "The upstream's fetch"). What differs: an error while the body is read is undici's own
 * (`UND_ERR_SOCKET` for a lost connection, attempt-failure.ts), not fetch's "terminated";
 * no `Accept-Encoding` is sent (a server that compresses anyway is decoded by the agent's
 * interceptor, upstream-agent.ts). Only the bodies the SDK sends for JSON calls (a
 * string) are accepted.
 */
import { Readable } from 'node:stream';
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
  return new NodeBodyResponse(answer.body, responseInit);
}

/**
 * A `Response` whose body is also given as undici's Node stream, for a reader that takes
 * it directly (stream-completion.ts) and so spares each chunk a web stream. The web body
 * (what the SDK reads of an error answer) is made from the same stream on its first read
 * only: whichever is read first has the chunks. Cancelling the web body ends the call.
 */
export class NodeBodyResponse extends Response {
  constructor(
    readonly nodeBody: Readable,
    init: ResponseInit,
  ) {
    super(lazyWebStream(nodeBody), init);
  }
}

/** `body` as a web stream that reads nothing until its first read (high-water mark 0). */
function lazyWebStream(body: Readable): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
        const next = await chunks.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value);
      },
      cancel(reason: unknown) {
        body.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The answer's headers as the `Response` takes them: a repeated header's values joined, as `Headers` would. */
function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}
