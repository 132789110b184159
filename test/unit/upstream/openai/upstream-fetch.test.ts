import { retryAfterMs, upstreamFetch } from '../../../../src/upstream/openai/upstream-fetch';
import type { SendUpstream } from '../../../../src/upstream/openai/upstream-http';

/** An upstream that answers every exchange with this. */
function answering(status: number, body: string, headers: Record<string, string> = {}): SendUpstream {
  return () => Promise.resolve({ status, statusText: '', headers: new Headers(headers), body: Buffer.from(body) });
}

describe('retryAfterMs', () => {
  test.each<[string, Record<string, string>, number | null]>([
    ['no header', {}, null],
    ['retry-after-ms', { 'retry-after-ms': '250' }, 250],
    ['retry-after in seconds', { 'retry-after': '2' }, 2000],
    ['an unreadable retry-after', { 'retry-after': 'soon' }, null],
  ])('when the response has %s, then the wait is %p', (_, headers, want) => {
    expect(retryAfterMs(new Headers(headers))).toBe(want);
  });

  test('when retry-after is an HTTP date, then the wait is the time until it', () => {
    const inOneMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(retryAfterMs(new Headers({ 'retry-after': inOneMinute }))).toBeGreaterThan(55_000);
  });
});

describe('upstreamFetch', () => {
  test.each<[string, number, Record<string, string>, string | null]>([
    ['a 429 asks for longer than the budget', 429, { 'retry-after': '30' }, 'false'],
    ['a 429 asks for less than the budget', 429, { 'retry-after-ms': '10' }, null],
    ['a 503 asks for nothing', 503, {}, null],
    ['a 200 carries a retry-after', 200, { 'retry-after': '30' }, null],
  ])('when %s, then x-should-retry is %p', async (_, status, headers, want) => {
    const fetchImpl = upstreamFetch({ budgetMs: 1000 }, answering(status, '{}', headers));

    const response = await fetchImpl('http://127.0.0.1/');

    expect(response.status).toBe(status);
    expect(response.headers.get('x-should-retry')).toBe(want);
  });

  test.each<[string, string, string | null]>([
    ['insufficient_quota', '{"error":{"code":"insufficient_quota","message":"x"}}', 'false'],
    ['rate_limit_exceeded', '{"error":{"code":"rate_limit_exceeded","message":"x"}}', null],
    ['a body that is not JSON', 'slow down', null],
  ])('when a 429 says %s, then x-should-retry is %p', async (_, body, want) => {
    const fetchImpl = upstreamFetch({ budgetMs: 1000 }, answering(429, body));

    const response = await fetchImpl('http://127.0.0.1/');

    expect(response.headers.get('x-should-retry')).toBe(want);
    expect(await response.text()).toBe(body);
  });

  test('when an attempt is made, then it is counted, once per call of the fetch', async () => {
    let attempts = 0;
    const fetchImpl = upstreamFetch({ budgetMs: 1000, onAttempt: () => attempts++ }, answering(200, '{}'));

    await fetchImpl('http://127.0.0.1/');
    await fetchImpl('http://127.0.0.1/');

    expect(attempts).toBe(2);
  });
});
