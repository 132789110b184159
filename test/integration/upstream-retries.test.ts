/**
 * The upstream time budget and retry policy, black-box through the service's HTTP API
 * with the real `openai` client against the fake server (docs/upstream.md, "Time budget"
 * and "Retries"). No assertion on elapsed time: what is checked is how many calls each
 * upstream received, what the client got, and (a lower bound, which a busy machine only
 * lengthens) the gap the service left before a retry.
 */
import { bodyOf } from '../support/json';
import { delay, reply, status, UPSTREAM_PREDICTION as PREDICTION, FAKE_UPSTREAM_SPEED, type FakeOpenAi } from '../support/fake-openai-server';
import { balanceOf, createAccount, PERSON } from '../support/factories';
import { startPrimaryAndFallback } from '../support/fake-upstream-pair';
import type { TestServer } from '../support/test-server';

const upstreams = startPrimaryAndFallback(({ primary }) => ({ OPENAI_API_KEY: 'sk-primary-0123456789', OPENAI_BASE_URL: primary.baseURL }));
const { withServer } = upstreams;

async function snap(server: TestServer, credits = 1) {
  const account = await createAccount(server, credits);
  const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
  return { account, response, body: await bodyOf(response) };
}

const gapsOf = (fake: FakeOpenAi): number[] => fake.requests.slice(1).map((request, i) => request.receivedAt - (fake.requests[i]?.receivedAt ?? 0));

describe('time budget with every setting at its default', () => {
  test('when the upstream answers in 16 s, then its one call is not cut or retried and the client gets 201', () =>
    withServer({}, async (server) => {
      upstreams.primary.script(delay(16_000, reply(PREDICTION)));
      const { response, account } = await snap(server);
      expect(response.status).toBe(201);
      expect(upstreams.primary.requests).toHaveLength(1);
      expect(await balanceOf(server, account.accountId)).toBe(0);
    }), 60_000);
});

describe('retries', () => {
  const FAST = { ...FAKE_UPSTREAM_SPEED, OPENAI_MAX_RETRIES: '1' };

  test('when the upstream answers 503 without Retry-After, then the retry comes after a back-off, not at once', () =>
    withServer({ ...FAST, OPENAI_TIMEOUT_SECONDS: '10' }, async (server) => {
      upstreams.primary.script(status(503), reply(PREDICTION));
      const { response } = await snap(server);
      expect(response.status).toBe(201);
      expect(upstreams.primary.requests).toHaveLength(2);
      // The first back-off is 1 s less at most a quarter of jitter.
      expect(gapsOf(upstreams.primary)[0]).toBeGreaterThanOrEqual(750);
    }));

  test('when the upstream answers 429 with Retry-After: 2, then the retry waits the 2 s it asked for', () =>
    withServer({ ...FAST, OPENAI_TIMEOUT_SECONDS: '10' }, async (server) => {
      upstreams.primary.script(status(429, undefined, { headers: { 'retry-after': '2' } }), reply(PREDICTION));
      const { response } = await snap(server);
      expect(response.status).toBe(201);
      expect(upstreams.primary.requests).toHaveLength(2);
      expect(gapsOf(upstreams.primary)[0]).toBeGreaterThanOrEqual(2000);
    }));

  test('when the Retry-After outlasts the time left, then there is no retry: one call, 500, nothing charged', () =>
    withServer({ ...FAST, OPENAI_TIMEOUT_SECONDS: '10' }, async (server) => {
      upstreams.primary.always(status(503, undefined, { headers: { 'retry-after': '30' } }));
      const { response, account } = await snap(server);
      expect(response.status).toBe(500);
      expect(upstreams.primary.requests).toHaveLength(1);
      expect(await balanceOf(server, account.accountId)).toBe(1);
    }));

  test('when the time left cannot hold another attempt as long as the failed one, then there is no retry', () =>
    // A 500 after 2.5 s of a 4 s budget: 1.5 s left, less than a back-off and another 2.5 s.
    withServer({ ...FAST, OPENAI_TIMEOUT_SECONDS: '4' }, async (server) => {
      upstreams.primary.always(delay(2500, status(500)));
      const { response } = await snap(server);
      expect(response.status).toBe(500);
      expect(upstreams.primary.requests).toHaveLength(1);
    }));

  test('when an attempt times out and a fallback is configured, then the fallback gets the call instead of a retry', () =>
    withServer(
      {
        ...FAST,
        OPENAI_TIMEOUT_SECONDS: '8',
        OPENAI_ATTEMPT_TIMEOUT_SECONDS: '1',
        OPENAI_FALLBACK_BASE_URL: upstreams.fallback.baseURL,
        OPENAI_FALLBACK_API_KEY: 'sk-fallback-0123456789',
      },
      async (server) => {
        upstreams.primary.always(delay(5000, reply(PREDICTION)));
        upstreams.fallback.script(reply(PREDICTION));
        const { response, body } = await snap(server);
        expect(response.status).toBe(201);
        expect(body).toMatchObject({ success: true });
        expect(upstreams.primary.requests).toHaveLength(1);
        expect(upstreams.fallback.requests).toHaveLength(1);
      },
    ));

  test("when most of an upstream's attempts fail, then its retries stop across calls (gRFC A6 throttling), and answers bring them back", () =>
    withServer({ ...FAST, OPENAI_TIMEOUT_SECONDS: '10', OPENAI_BREAKER_FAILURES: '1000' }, async (server) => {
      // Ten tokens, one taken by each failed attempt, retries only above five: the first two
      // calls are retried (10 → 8 → 6), the next four are not (6 → 5, then no retry).
      upstreams.primary.always(status(503, undefined, { headers: { 'retry-after-ms': '0' } }));
      const account = await createAccount(server, 80);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status);
      expect(statuses).toEqual([500, 500, 500, 500, 500, 500]);
      expect(upstreams.primary.requests).toHaveLength(2 + 2 + 1 + 1 + 1 + 1);

      // Two tokens are left, and each answer gives back a tenth of one: after 40 answers a
      // failure is not retried (6 → 5, not above half); after 11 more it is (6.1 → 5.1).
      const answers = async (count: number) => {
        upstreams.primary.always(reply(PREDICTION));
        for (let i = 0; i < count; i++) expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status).toBe(201);
      };
      const requestsOfAFailure = async () => {
        upstreams.primary.script(status(503, undefined, { headers: { 'retry-after-ms': '0' } }));
        const before = upstreams.primary.requests.length;
        await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
        return upstreams.primary.requests.length - before;
      };
      await answers(40);
      expect(await requestsOfAFailure()).toBe(1);
      await answers(11);
      expect(await requestsOfAFailure()).toBe(2);
    }));
});
