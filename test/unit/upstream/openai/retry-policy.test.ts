import { backoffMs, decideRetry, mayPass, retryAfterMs, type AttemptFailure, type RetryContext } from '../../../../src/upstream/openai/retry-policy';
import { RETRY_TOKENS, RetryThrottle, TOKENS_PER_ANSWER } from '../../../../src/upstream/openai/retry-throttle';

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
    ["the upstream's retries are throttled across the process", { throttled: true }, { retry: false }],
  ])('when %s', (_, overrides, want) => {
    const decision = decideRetry(given(overrides));

    expect(decision.retry).toBe(want.retry);
    if (decision.retry) expect(decision.waitMs).toBe(want.waitMs);
    else expect(decision.reason).toEqual(expect.any(String));
  });
});

describe('mayPass', () => {
  test.each<[string, AttemptFailure, boolean]>([
    ['a timeout', { kind: 'timeout' }, true],
    ['a lost connection', { kind: 'connection' }, true],
    ['a 503', status(503), true],
    ['a 429', status(429), true],
    ['a 429 insufficient_quota', status(429, { quotaExhausted: true }), false],
    ['a 400', status(400), false],
    ['an unreadable answer', { kind: 'final' }, false],
  ])('when the attempt failed with %s, then a retry could pass: %s', (_, failure, want) => {
    expect(mayPass(failure)).toBe(want);
  });
});

describe('RetryThrottle (gRFC A6)', () => {
  test('when half the tokens or more are taken by failures, then retries stop; answers bring them back a tenth at a time', () => {
    const throttle = new RetryThrottle();
    const failuresAllowed = RETRY_TOKENS / 2 - 1;
    for (let i = 0; i < failuresAllowed; i++) throttle.failed({ kind: 'connection' });
    expect(throttle.allowsRetry).toBe(true);
    throttle.failed(status(503));
    expect(throttle.allowsRetry).toBe(false);
    for (let i = 0; i < Math.round(1 / TOKENS_PER_ANSWER); i++) throttle.answered();
    expect(throttle.allowsRetry).toBe(true);
  });

  test('when failures are few among answers, then retries stay allowed, and answers never bank more than the bucket', () => {
    const throttle = new RetryThrottle();
    for (let i = 0; i < 1000; i++) throttle.answered();
    for (let round = 0; round < 20; round++) {
      throttle.failed({ kind: 'timeout' });
      for (let i = 0; i < 20; i++) throttle.answered();
      expect(throttle.allowsRetry).toBe(true);
    }
    for (let i = 0; i < RETRY_TOKENS / 2; i++) throttle.failed(status(429));
    expect(throttle.allowsRetry).toBe(false);
  });

  test('when attempts fail in ways no retry could pass, then no token is taken; a server pushing back takes one (gRFC A6)', () => {
    const throttle = new RetryThrottle();
    for (let i = 0; i < 100; i++) [status(400), status(429, { quotaExhausted: true }), { kind: 'final' } as const].forEach((failure) => throttle.failed(failure));
    expect(throttle.allowsRetry).toBe(true);
    for (let i = 0; i < RETRY_TOKENS / 2; i++) throttle.failed({ kind: 'final', pushedBack: true });
    expect(throttle.allowsRetry).toBe(false);
  });

  test('when 40 answers follow a full outage down to 2 tokens, then a failure is not retried (6 - 1 is not above 5); after 41 it is, exactly', () => {
    const throttle = new RetryThrottle();
    for (let i = 0; i < RETRY_TOKENS - 2; i++) throttle.failed({ kind: 'connection' });
    for (let i = 0; i < 40; i++) throttle.answered();
    throttle.failed({ kind: 'connection' });
    expect(throttle.allowsRetry).toBe(false);
    for (let i = 0; i < 11; i++) throttle.answered();
    throttle.failed({ kind: 'connection' });
    expect(throttle.allowsRetry).toBe(true);
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
