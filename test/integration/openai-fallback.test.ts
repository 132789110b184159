/**
 * The fallback upstream and the circuit breaker, and Azure OpenAI's classic deployments,
 * through the whole service with the real `openai` client against two fake servers.
 */
import { bodyOf } from '../support/json';
import { hang, reply, status, UPSTREAM_PREDICTION as PREDICTION, type FakeOpenAi, FAKE_UPSTREAM_SPEED } from '../support/fake-openai-server';
import { balanceOf, createAccount, PERSON, snapCountOf } from '../support/factories';
import { sampleValue } from '../support/prometheus';
import { startPrimaryAndFallback } from '../support/fake-upstream-pair';
import { startTestServer, type TestServer } from '../support/test-server';

const DOWN = status(503, undefined, { headers: { 'x-should-retry': 'false' } });
const upstreams = startPrimaryAndFallback(({ primary, fallback }) => ({
  OPENAI_API_KEY: 'sk-primary-0123456789',
  OPENAI_BASE_URL: primary.baseURL,
  OPENAI_MODEL: 'primary-model',
  OPENAI_FALLBACK_BASE_URL: fallback.baseURL,
  OPENAI_FALLBACK_API_KEY: 'sk-fallback-0123456789',
  OPENAI_FALLBACK_MODEL: 'fallback-model',
  ...FAKE_UPSTREAM_SPEED,
  OPENAI_TIMEOUT_SECONDS: '4',
  OPENAI_MAX_RETRIES: '0',
}));
const { withServer } = upstreams;

async function snap(server: TestServer, apiKey: string) {
  const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': apiKey });
  return { response, body: await bodyOf(response) };
}

describe('fallback upstream', () => {
  test('when the primary is down, then the fallback answers: 201, stored and counted as the fallback', () =>
    withServer({}, async (server) => {
      upstreams.primary.script(DOWN);
      upstreams.fallback.script(reply(PREDICTION));
      const account = await createAccount(server, 1);
      const { response, body } = await snap(server, account.apiKey);
      expect(response.status).toBe(201);
      expect(upstreams.primary.requests).toHaveLength(1);
      expect(upstreams.fallback.requests[0]?.headers.authorization).toBe('Bearer sk-fallback-0123456789');
      expect(upstreams.fallback.requests[0]?.chat?.model).toBe('fallback-model');
      const row = await server.services.db('snaps').where({ id: body.data.snapId }).first();
      expect(row).toMatchObject({ predictor: 'openai', model: 'fallback-model', upstream: 'fallback' });
      const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
      expect(sampleValue(metrics, 'upstream_calls_total', { operation: 'predictSnap', upstream: 'primary' })).toBe(1);
      expect(sampleValue(metrics, 'upstream_calls_total', { operation: 'predictSnap', upstream: 'fallback' })).toBe(1);
      expect(sampleValue(metrics, 'upstream_tokens_total', { operation: 'predictSnap', model: 'fallback-model', kind: 'prompt', upstream: 'fallback' })).toBe(812);
    }));

  test("when the fallback's bound has a name of its own, then each upstream's request carries the bound under its own name", () =>
    withServer({ OPENAI_FALLBACK_MAX_TOKENS_PARAMETER: 'max_tokens' }, async (server) => {
      upstreams.primary.script(DOWN);
      upstreams.fallback.script(reply(PREDICTION));
      const account = await createAccount(server, 1);
      expect((await snap(server, account.apiKey)).response.status).toBe(201);
      const [primary, fallback] = [upstreams.primary.requests[0]?.body, upstreams.fallback.requests[0]?.body] as Record<string, unknown>[];
      expect([primary?.['max_completion_tokens'], primary?.['max_tokens'], fallback?.['max_completion_tokens'], fallback?.['max_tokens']]).toEqual([1000, undefined, undefined, 1000]);
    }));

  test('when the primary hangs, then the fallback still answers within OPENAI_TIMEOUT_SECONDS (the primary has half of it)', () =>
    withServer({}, async (server) => {
      upstreams.primary.always({ kind: 'hang' });
      upstreams.fallback.script(reply(PREDICTION));
      const account = await createAccount(server, 1);
      const { response, body } = await snap(server, account.apiKey);
      // A hanging primary never answers, and a call whose whole time ran out is not passed on:
      // the fallback's 201 means the primary was cut before OPENAI_TIMEOUT_SECONDS (4 s) had passed.
      expect(response.status).toBe(201);
      expect([upstreams.primary.requests.length, upstreams.fallback.requests.length]).toEqual([1, 1]);
      const row = await server.services.db('snaps').where({ id: body.data.snapId }).first();
      expect(row).toMatchObject({ model: 'fallback-model', upstream: 'fallback' });
      // Its half, as the primary's request states its bound: the SDK sends the timeout it was
      // given, in whole seconds rounded down (X-Stainless-Timeout); the whole 4 s would say 3 or 4.
      expect(Number(upstreams.primary.requests[0]?.headers['x-stainless-timeout'])).toBeLessThanOrEqual(2);
    }));

  test('when both fail, then it answers the contract 500, stores nothing and charges nothing', () =>
    withServer({}, async (server) => {
      upstreams.primary.script(DOWN);
      upstreams.fallback.script(DOWN);
      const account = await createAccount(server, 1);
      const { response, body } = await snap(server, account.apiKey);
      expect(response.status).toBe(500);
      expect(body.message).toBe('Failed to generate snap Please try again later');
      expect(await balanceOf(server, account.accountId)).toBe(1);
      expect(await snapCountOf(server, account.accountId)).toBe(0);
    }));

  test('when the whole OPENAI_TIMEOUT_SECONDS runs out while the fallback has the call, then it is a timeout: an outage outside the failure budget, counted as upstreamTimeout', () =>
    // 4 s in all with a retry: each attempt 1 s, the primary's share 2 s, the fallback's own deadline 4 s from its start.
    withServer({ OPENAI_MAX_RETRIES: '1', FAILURE_BUDGET_CALLS: '1' }, async (server) => {
      // The primary is cut at its attempt's 1 s; the fallback then asks for a 3.5 s wait, which
      // its own deadline holds and the 3 s the whole call has left do not: the whole call's deadline ends it.
      upstreams.primary.always(hang());
      upstreams.fallback.always(status(503, undefined, { headers: { 'retry-after-ms': '3500' } }));
      const account = await createAccount(server, 1);
      const { response } = await snap(server, account.apiKey);
      expect(response.status).toBe(500);
      expect([upstreams.primary.requests.length, upstreams.fallback.requests.length]).toEqual([1, 1]);
      const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
      expect(sampleValue(metrics, 'failure_budget_failures_total', { operation: 'createSnap' })).toBe(0);
      // The usage view's kind of the failed call, on its tallies' row.
      expect(await server.services.db('usage_tallies').where({ account_id: account.accountId }).where('calls', '>', 0).pluck('outcome')).toEqual(['upstreamTimeout']);
      expect(await balanceOf(server, account.accountId)).toBe(1);
    }));

  test('when the primary failed OPENAI_BREAKER_FAILURES times in a row, then the next calls skip it for the cool-down', () =>
    withServer({ OPENAI_BREAKER_FAILURES: '2', OPENAI_BREAKER_COOLDOWN_SECONDS: '600' }, async (server) => {
      upstreams.primary.always(DOWN);
      upstreams.fallback.always(reply(PREDICTION));
      const account = await createAccount(server, 4);
      for (let i = 0; i < 4; i++) expect((await snap(server, account.apiKey)).response.status).toBe(201);
      expect(upstreams.primary.requests).toHaveLength(2);
      expect(upstreams.fallback.requests).toHaveLength(4);
      const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
      expect(sampleValue(metrics, 'upstream_skipped_calls_total', { then: 'fallback' })).toBe(2);
    }));
});

describe('Azure OpenAI, classic deployments', () => {
  const AZURE = (fake: FakeOpenAi) => ({
    AZURE_OPENAI_ENDPOINT: fake.baseURL.replace(/\/v1$/, ''),
    AZURE_OPENAI_API_KEY: 'azure-key-0123456789',
    AZURE_OPENAI_DEPLOYMENT: 'pps-gpt4o',
    AZURE_OPENAI_API_VERSION: '2024-10-21',
  });

  test('when Azure is the primary, then the call goes to the deployment path with api-version and the api-key header, without `store`', async () => {
    const server = await startTestServer({ ...AZURE(upstreams.primary), ...FAKE_UPSTREAM_SPEED, OPENAI_TIMEOUT_SECONDS: '4' });
    try {
      upstreams.primary.script(reply(PREDICTION));
      const account = await createAccount(server, 1);
      const { response, body } = await snap(server, account.apiKey);
      expect(response.status).toBe(201);
      const [sent] = upstreams.primary.requests;
      expect(sent?.path).toBe('/openai/deployments/pps-gpt4o/chat/completions');
      expect(sent?.query).toEqual({ 'api-version': '2024-10-21' });
      expect(sent?.headers['api-key']).toBe('azure-key-0123456789');
      expect(sent?.headers.authorization).toBeUndefined();
      expect(sent?.body).not.toHaveProperty('store');
      const row = await server.services.db('snaps').where({ id: body.data.snapId }).first();
      expect(row).toMatchObject({ model: 'pps-gpt4o', upstream: 'primary' });
    } finally {
      await server.close();
    }
  });

  test('when Azure is the fallback beside OPENAI_API_KEY, then it answers when the primary fails', async () => {
    const server = await startTestServer({ OPENAI_API_KEY: 'sk-primary-0123456789', OPENAI_BASE_URL: upstreams.primary.baseURL, ...AZURE(upstreams.fallback), ...FAKE_UPSTREAM_SPEED, OPENAI_TIMEOUT_SECONDS: '4', OPENAI_MAX_RETRIES: '0' });
    try {
      upstreams.primary.script(DOWN);
      upstreams.fallback.script(reply(PREDICTION));
      const account = await createAccount(server, 1);
      const { response, body } = await snap(server, account.apiKey);
      expect(response.status).toBe(201);
      expect(upstreams.fallback.requests[0]?.path).toBe('/openai/deployments/pps-gpt4o/chat/completions');
      const row = await server.services.db('snaps').where({ id: body.data.snapId }).first();
      expect(row).toMatchObject({ model: 'pps-gpt4o', upstream: 'fallback' });
    } finally {
      await server.close();
    }
  });
});
