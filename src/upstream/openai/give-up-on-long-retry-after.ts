/**
 * A fetch for the SDK that stops it from waiting out a Retry-After longer than the
 * whole call may take: such a response gets `x-should-retry: false`, so the SDK fails
 * at once with the upstream status (e.g. 429) instead of sleeping for up to an hour
 * with a timer that outlives the call. Shorter waits are left to the SDK, and the
 * call's deadline still cuts them short.
 */
type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function giveUpOnLongRetryAfter(budgetMs: number, fetchImpl: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    const waitMs = retryAfterMs(response.headers);
    if (response.ok || waitMs === null || waitMs < budgetMs) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
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
