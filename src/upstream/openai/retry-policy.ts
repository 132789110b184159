/**
 * Whether a failed upstream attempt is tried again, and after how long (docs/upstream.md,
 * "Retries"). A retry is worth its cost only when it can succeed:
 * - only failures that may pass: a timeout, a lost connection, an error event mid-stream,
 *   408, 409, 429 (not `insufficient_quota`), 5xx; never another 4xx, an oversized or
 *   unreadable answer;
 * - never straight back into an overloaded server: the wait a 429/503 asks for
 *   (`retry-after-ms`, `Retry-After`) is honoured, and without one every retry backs
 *   off exponentially (with jitter, so that callers spread out);
 * - only when the time left after the wait can hold another attempt as long as the
 *   one just observed (a server that took 16 s will take about as long again);
 * - after an attempt timeout, not at all when a fallback upstream is configured: a
 *   server too slow for one attempt is usually still busy with it, and the fallback
 *   gets the time instead;
 * - not while the upstream's retries are throttled across the process (retry-throttle.ts).
 */

/** How an attempt failed, as far as the policy needs to know. */
export type AttemptFailure =
  | { kind: 'timeout' }
  | { kind: 'connection' }
  /** The server sent an error event in its streamed answer (attempt-failure.ts): retried as a 5xx is. */
  | { kind: 'errorEvent' }
  | { kind: 'status'; status: number; retryAfterMs: number | null; quotaExhausted: boolean }
  /** Retrying cannot help (an oversized or unreadable answer, a programming error, or the server said not to: `pushedBack`). */
  | { kind: 'final'; pushedBack?: boolean };

export interface RetryContext {
  failure: AttemptFailure;
  /** Attempts made so far (1 after the first). */
  attempts: number;
  maxRetries: number;
  /** How long the failed attempt took. */
  observedMs: number;
  /** Time left in the whole call's budget. */
  remainingMs: number;
  /** A fallback upstream will get the call if this one gives up. */
  hasFallback: boolean;
  /** In [0, 1); Math.random unless a test fixes it. */
  random?: () => number;
  /** The upstream's retries are throttled across the process (retry-throttle.ts). */
  throttled?: boolean;
}

export type RetryDecision = { retry: true; waitMs: number } | { retry: false; reason: string };

/** The first back-off without a Retry-After; it doubles with each retry. */
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 8_000;

const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** Whether a retry could get past this failure at all (the rules below add when and whether it is worth it). */
export function mayPass(failure: AttemptFailure): boolean {
  if (failure.kind === 'final') return false;
  if (failure.kind !== 'status') return true;
  return !failure.quotaExhausted && (RETRYABLE_STATUSES.has(failure.status) || failure.status >= 500);
}

export function decideRetry(context: RetryContext): RetryDecision {
  const { failure, attempts, maxRetries, observedMs, remainingMs, hasFallback } = context;
  if (attempts > maxRetries) return { retry: false, reason: 'no retries left' };
  if (failure.kind === 'final') return { retry: false, reason: 'a retry would fail the same way' };
  if (failure.kind === 'timeout' && hasFallback) return { retry: false, reason: 'the attempt timed out: the fallback gets the time left' };
  if (failure.kind === 'status') {
    if (failure.quotaExhausted) return { retry: false, reason: 'the quota is exhausted' };
    if (!mayPass(failure)) return { retry: false, reason: `HTTP ${failure.status} is not retried` };
  }
  if (context.throttled === true) return { retry: false, reason: "the upstream's retries are throttled: too many of its attempts failed lately (retry-throttle.ts)" };
  const asked = failure.kind === 'status' ? failure.retryAfterMs : null;
  const waitMs = asked !== null ? Math.max(0, asked) : backoffMs(attempts, context.random ?? Math.random);
  if (waitMs + observedMs > remainingMs) {
    return { retry: false, reason: `the ${Math.round(remainingMs)} ms left cannot hold a wait of ${Math.round(waitMs)} ms and another attempt of ${Math.round(observedMs)} ms` };
  }
  return { retry: true, waitMs };
}

/** 1 s, 2 s, 4 s, … up to 8 s, each between 75% and 100% of that (jitter). */
export function backoffMs(attempts: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempts - 1));
  return ceiling * (1 - 0.25 * random());
}

/** The wait a response asks for (`retry-after-ms`, then `Retry-After` in seconds or as a date); null when it asks none. */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | null {
  if (!headers) return null;
  const ms = parseFloat(headers.get('retry-after-ms') ?? '');
  if (!Number.isNaN(ms)) return ms;
  const value = headers.get('retry-after');
  if (value === null) return null;
  const seconds = parseFloat(value);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
