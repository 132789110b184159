import { backoffMs, decideRetry, retryAfterMs, type AttemptFailure, type RetryContext } from '../../../../src/upstream/openai/retry-policy';

const status = (code: number, extra: Partial<Extract<AttemptFailure, { kind: 'status' }>> = {}): AttemptFailure => ({
  kind: 'status',
  status: code,
  retryAfterMs: null,
  quotaExhausted: false,
  ...extra,
});

/** A first attempt that failed after 1 s with 60 s left, one retry allowed, no fallback; jitter fixed at none. */
function given(overrides: Partial<RetryContext>): RetryContext {
  return { failure: { kind: 'connection' }, attempts: 1, maxRetries: 1, observedMs: 1000, remainingMs: 60_000, hasFallback: false, random: () => 0, ...overrides };
}

describe('decideRetry', () => {
  test.each<[string, Partial<RetryContext>, { retry: boolean; waitMs?: number }]>([
    ['a lost connection is retried after the first back-off', {}, { retry: true, waitMs: 1000 }],
    ['a 500 is retried after the first back-off', { failure: status(500) }, { retry: true, waitMs: 1000 }],
    ['a 503 without Retry-After backs off (never at once)', { failure: status(503) }, { retry: true, waitMs: 1000 }],
    ['a 429 without Retry-After backs off (never at once)', { failure: status(429) }, { retry: true, waitMs: 1000 }],
    ['a 503 with Retry-After waits what it asks', { failure: status(503, { retryAfterMs: 2500 }) }, { retry: true, waitMs: 2500 }],
    ['a 429 with retry-after-ms 0 is retried at once, as asked', { failure: status(429, { retryAfterMs: 0 }) }, { retry: true, waitMs: 0 }],
    ['the second retry backs off twice as long', { attempts: 2, maxRetries: 3 }, { retry: true, waitMs: 2000 }],
    ['the back-off stops growing at 8 s', { attempts: 9, maxRetries: 10 }, { retry: true, waitMs: 8000 }],
    ['an attempt timeout without a fallback is retried', { failure: { kind: 'timeout' }, observedMs: 15_000 }, { retry: true, waitMs: 1000 }],
    ['an attempt timeout with a fallback is not: the fallback gets the time', { failure: { kind: 'timeout' }, hasFallback: true }, { retry: false }],
    ['a lost connection with a fallback is still retried', { hasFallback: true }, { retry: true, waitMs: 1000 }],
    ['no retry is left', { attempts: 2, maxRetries: 1 }, { retry: false }],
    ['maxRetries is 0', { maxRetries: 0 }, { retry: false }],
    ['a 400 is not retried', { failure: status(400) }, { retry: false }],
    ['a 401 is not retried', { failure: status(401) }, { retry: false }],
    ['a 404 is not retried', { failure: status(404) }, { retry: false }],
    ['a 408 is retried', { failure: status(408) }, { retry: true, waitMs: 1000 }],
    ['a 409 is retried', { failure: status(409) }, { retry: true, waitMs: 1000 }],
    ['a 429 insufficient_quota is not retried', { failure: status(429, { quotaExhausted: true }) }, { retry: false }],
    ['an oversized or unreadable answer is not retried', { failure: { kind: 'final' } }, { retry: false }],
    ['the time left cannot hold another attempt as long as the last', { observedMs: 16_000, remainingMs: 16_500 }, { retry: false }],
    ['the time left holds the wait and another attempt as long as the last', { observedMs: 16_000, remainingMs: 17_000 }, { retry: true, waitMs: 1000 }],
    ['the Retry-After outlasts the time left', { failure: status(503, { retryAfterMs: 30_000 }), remainingMs: 20_000 }, { retry: false }],
  ])('when %s', (_, overrides, want) => {
    const decision = decideRetry(given(overrides));

    expect(decision.retry).toBe(want.retry);
    if (decision.retry) expect(decision.waitMs).toBe(want.waitMs);
    else expect(decision.reason).toEqual(expect.any(String));
  });
});

describe('backoffMs', () => {
  test('when the jitter draws its largest value, then the wait is three quarters of the step', () => {
    expect(backoffMs(1, () => 0.999_999)).toBeCloseTo(750, 0);
    expect(backoffMs(3, () => 0.999_999)).toBeCloseTo(3000, 0);
  });
});

describe('retryAfterMs', () => {
  test.each<[string, Record<string, string>, number | null]>([
    ['no header', {}, null],
    ['retry-after-ms', { 'retry-after-ms': '250' }, 250],
    ['Retry-After in seconds', { 'retry-after': '2' }, 2000],
    ['both: retry-after-ms first', { 'retry-after-ms': '10', 'retry-after': '2' }, 10],
    ['garbage', { 'retry-after': 'soon' }, null],
    ['a date in the past', { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }, 0],
  ])('when %s, then %p', (_, headers, want) => {
    expect(retryAfterMs(new Headers(headers))).toBe(want);
  });

  test('when Retry-After is a date, then the wait is the time until it', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:01:00 GMT' }), now)).toBe(60_000);
  });
});
