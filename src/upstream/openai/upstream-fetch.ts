/**
 * The fetch the SDK calls for every HTTP attempt (retries included), on the upstream
 * transport (upstream-http.ts) rather than the global fetch. It:
 * - counts the attempt (`onAttempt`, for `upstream_calls_total`);
 * - reads the whole body, bounded, before handing the response back, so the SDK's
 *   per-attempt timeout, still running while this fetch runs, covers a body that
 *   stalls after the headers (the SDK's own timer stops at the headers), and such an
 *   attempt is retried like any other timeout;
 * - marks as not retryable (`x-should-retry: false`) what cannot pass on a retry: a 429
 *   `insufficient_quota`, and a Retry-After longer than the whole call may take (the SDK
 *   would sleep through it with a timer that outlives the call).
 */
import { createUpstreamHttp, type SendUpstream } from './upstream-http';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface UpstreamFetchOptions {
  /** The whole call's budget: a longer Retry-After is not waited for. */
  budgetMs: number;
  onAttempt?: () => void;
}

export function upstreamFetch(options: UpstreamFetchOptions, send: SendUpstream = createUpstreamHttp()): Fetch {
  return async (input, init) => {
    options.onAttempt?.();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const { status, statusText, headers, body } = await send({
      url,
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: bodyText(init?.body),
      signal: init?.signal ?? undefined,
    });
    if ((status < 200 || status > 299) && !worthRetrying(status, headers, body, options.budgetMs)) headers.set('x-should-retry', 'false');
    return new Response(status === 204 || status === 304 ? null : body, { status, statusText, headers });
  };
}

/** The SDK sends its JSON bodies as strings. */
function bodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  throw new TypeError('upstream request bodies are JSON text');
}

function worthRetrying(status: number, headers: Headers, body: Buffer, budgetMs: number): boolean {
  if (status === 429 && errorCodeOf(body) === 'insufficient_quota') return false;
  const waitMs = retryAfterMs(headers);
  return waitMs === null || waitMs < budgetMs;
}

/** `error.code` of an OpenAI-style error body, or undefined. */
function errorCodeOf(body: Buffer): unknown {
  try {
    const json: unknown = JSON.parse(body.toString('utf8'));
    const error = typeof json === 'object' && json !== null ? (json as { error?: unknown }).error : undefined;
    return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  } catch {
    return undefined;
  }
}

/** The wait a response asks for, read as the SDK reads it; null when it asks none. */
export function retryAfterMs(headers: Headers): number | null {
  const ms = parseFloat(headers.get('retry-after-ms') ?? '');
  if (!Number.isNaN(ms)) return ms;
  const value = headers.get('retry-after');
  if (value === null) return null;
  const seconds = parseFloat(value);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : date - Date.now();
}
