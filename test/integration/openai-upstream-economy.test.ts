/**
 * What every upstream call carries and what it records, through the whole service with
 * the real `openai` client against the fake server: the output-token bound, temperature
 * and seed; the token usage stored with the snap, summed in the admin account view and
 * counted in /metrics; the per-attempt timeout that lets a slow attempt be retried.
 */
import { bodyOf } from '../support/json';
import { delay, hang, reply, startFakeOpenAi, stall, textChunks, UPSTREAM_ANALYSIS, UPSTREAM_PREDICTION as PREDICTION, UPSTREAM_USAGE, type FakeOpenAi, FAKE_UPSTREAM_SPEED } from '../support/fake-openai-server';
import { promptEstimateOf } from '../support/prompt-estimate';
import { createAccount, PERSON } from '../support/factories';
import { sampleValue } from '../support/prometheus';
import { startTestServer, type TestServer } from '../support/test-server';

const MODEL = 'gpt-economy-test';
const NO_FAILED_CALLS = { prompt: 0, completion: 0, calls: 0, unreportedCalls: 0, estimatedPrompt: 0, estimatedCompletion: 0 };
let fake: FakeOpenAi;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({
    OPENAI_API_KEY: 'sk-economy-0123456789',
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_MODEL: MODEL,
    ...FAKE_UPSTREAM_SPEED,
    OPENAI_TIMEOUT_SECONDS: '10', // room for a 1 s attempt, a back-off and another attempt on a busy machine
    OPENAI_ATTEMPT_TIMEOUT_SECONDS: '1',
    OPENAI_MAX_RETRIES: '1',
    OPENAI_SEED: '1234',
  });
});

afterAll(async () => {
  await server.close();
  await fake.close();
});

beforeEach(() => fake.reset());

async function metricsOf(target: TestServer): Promise<string> {
  return (await fetch(`${target.adminUrl}/metrics`)).text();
}

async function snap(target: TestServer, apiKey: string) {
  const response = await target.post('/api/v1/snap', PERSON, { 'x-api-key': apiKey });
  return { response, body: await bodyOf(response) };
}

describe('upstream requests', () => {
  test('when a snap is predicted, then the request carries the default output bound, temperature 0, the seed, and asks OpenAI not to store it', async () => {
    fake.script(reply(PREDICTION));
    const account = await createAccount(server, 1);
    expect((await snap(server, account.apiKey)).response.status).toBe(201);
    expect(fake.requests[0]?.body).toMatchObject({ model: MODEL, max_completion_tokens: 1000, temperature: 0, seed: 1234, store: false });
    expect(fake.requests[0]?.body).not.toHaveProperty('max_tokens');
    expect(fake.requests[0]?.body).not.toHaveProperty('reasoning_effort');
  });

  test('when the comms route calls, then it carries its own, larger bound', async () => {
    fake.script(reply(PREDICTION), reply(UPSTREAM_ANALYSIS));
    const account = await createAccount(server, 2);
    const { body } = await snap(server, account.apiKey);
    const comms = await server.post('/api/v1/snap/comms', { snapId: body.data.snapId }, { 'x-api-key': account.apiKey });
    expect(comms.status).toBe(201);
    expect(fake.requests[1]?.body).toMatchObject({ max_completion_tokens: 4000 });
  });

  test('when one bound for both routes is too small for the longest comms answer the schema allows, then the service refuses to start, naming the variable, before it calls anyone', async () => {
    const requestsBefore = fake.requests.length;
    await expect(startTestServer({ OPENAI_API_KEY: 'sk-economy-0123456789', OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_OUTPUT_TOKENS: '600' })).rejects.toThrow(
      /^Invalid configuration: OPENAI_MAX_OUTPUT_TOKENS_COMMS \(or OPENAI_MAX_OUTPUT_TOKENS\) must be at least \d+ \(got 600\)/,
    );
    expect(fake.requests.length).toBe(requestsBefore);
  });

  test('when the bound is named max_tokens, the temperature is empty and a reasoning effort is set, then the request says exactly that', async () => {
    const other = await startTestServer({
      OPENAI_API_KEY: 'sk-economy-0123456789',
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_MAX_OUTPUT_TOKENS_SNAP: '700',
      OPENAI_MAX_TOKENS_PARAMETER: 'max_tokens',
      OPENAI_TEMPERATURE: '',
      OPENAI_REASONING_EFFORT: 'low',
    });
    try {
      fake.script(reply(PREDICTION));
      const account = await createAccount(other, 1);
      expect((await snap(other, account.apiKey)).response.status).toBe(201);
      const sent = fake.requests[0]?.body as Record<string, unknown>;
      expect(sent).toMatchObject({ max_tokens: 700, reasoning_effort: 'low' });
      expect(sent).not.toHaveProperty('max_completion_tokens');
      expect(sent).not.toHaveProperty('temperature');
      expect(sent).not.toHaveProperty('seed');
    } finally {
      await other.close();
    }
  });
});

describe('usage', () => {
  test('when the upstream reports usage, then it is stored with the snap, summed in the account view and counted in /metrics', async () => {
    const before = await metricsOf(server);
    fake.script(reply(PREDICTION), reply(PREDICTION, { usage: { prompt_tokens: 900, completion_tokens: 200, total_tokens: 1100 } }));
    const account = await createAccount(server, 2);
    const { body } = await snap(server, account.apiKey);
    await snap(server, account.apiKey);

    const row = await server.services.db('snaps').where({ id: body.data.snapId }).first();
    expect(row).toMatchObject({ upstream: 'primary', prompt_tokens: UPSTREAM_USAGE.prompt_tokens, completion_tokens: UPSTREAM_USAGE.completion_tokens });
    const view = await server.admin<{ tokens: unknown }>('GET', `/admin/v1/accounts/${account.accountId}`);
    expect(view.tokens).toEqual({ prompt: 812 + 900, completion: 164 + 200, estimatedPrompt: 0, estimatedCompletion: 0, failed: NO_FAILED_CALLS });

    const after = await metricsOf(server);
    const labels = (kind: string) => ({ operation: 'predictSnap', model: MODEL, kind, upstream: 'primary', outcome: 'success' });
    expect(sampleValue(after, 'upstream_tokens_total', labels('prompt')) - sampleValue(before, 'upstream_tokens_total', labels('prompt'))).toBe(1712);
    expect(sampleValue(after, 'upstream_tokens_total', labels('completion')) - sampleValue(before, 'upstream_tokens_total', labels('completion'))).toBe(364);
    const calls = { operation: 'predictSnap', upstream: 'primary' };
    expect(sampleValue(after, 'upstream_calls_total', calls) - sampleValue(before, 'upstream_calls_total', calls)).toBe(2);
  });

  test('when the answer has no usage, then the snap and its ledger debit store the service\'s estimate, marked, and it is counted as estimated in /metrics and the account view', async () => {
    const before = await metricsOf(server);
    fake.script(reply(PREDICTION, { usage: null }));
    const account = await createAccount(server, 1);
    const { response, body } = await snap(server, account.apiKey);
    expect(response.status).toBe(201);
    const estimate = { prompt_tokens: promptEstimateOf(fake.requests[0]), completion_tokens: textChunks(JSON.stringify(PREDICTION)).length, tokens_estimated: true };
    expect(estimate.prompt_tokens).toBeGreaterThan(100);
    const row = await server.services.db('snaps').where({ id: body.data.snapId }).first();
    expect(row).toMatchObject({ upstream: 'primary', ...estimate });
    const debit = await server.services.db('credit_ledger').where({ snap_id: body.data.snapId }).first();
    // The ledger's counts are bigint, which pg reads as strings.
    expect({ ...debit, prompt_tokens: Number(debit.prompt_tokens), completion_tokens: Number(debit.completion_tokens) }).toMatchObject({ delta: -1, ...estimate });
    const after = await metricsOf(server);
    const added = (kind: string, source: string) => {
      const labels = { operation: 'predictSnap', model: MODEL, kind, upstream: 'primary', outcome: 'success', source };
      return sampleValue(after, 'upstream_tokens_total', labels) - sampleValue(before, 'upstream_tokens_total', labels);
    };
    expect({ prompt: added('prompt', 'estimated'), completion: added('completion', 'estimated') }).toEqual({ prompt: estimate.prompt_tokens, completion: estimate.completion_tokens });
    expect({ prompt: added('prompt', 'reported'), completion: added('completion', 'reported') }).toEqual({ prompt: 0, completion: 0 });
    const unreported = { operation: 'predictSnap', upstream: 'primary', outcome: 'success' };
    expect(sampleValue(after, 'upstream_unreported_calls_total', unreported) - sampleValue(before, 'upstream_unreported_calls_total', unreported)).toBe(1);
    expect((await server.admin<{ tokens: unknown }>('GET', `/admin/v1/accounts/${account.accountId}`)).tokens).toEqual({
      prompt: estimate.prompt_tokens,
      completion: estimate.completion_tokens,
      estimatedPrompt: estimate.prompt_tokens,
      estimatedCompletion: estimate.completion_tokens,
      failed: NO_FAILED_CALLS,
    });
  });

  test('when a call times out without a usage report (two attempts sent), then its prompt tokens are estimated per attempt from what was sent, marked estimated in /metrics and the account view', async () => {
    const timing = await startTestServer({
      OPENAI_API_KEY: 'sk-economy-0123456789',
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_MODEL: MODEL,
      ...FAKE_UPSTREAM_SPEED,
      OPENAI_MAX_RETRIES: '1',
      OPENAI_ATTEMPT_TIMEOUT_SECONDS: '0.5',
      OPENAI_TIMEOUT_SECONDS: '30',
    });
    try {
      fake.always(hang());
      const before = await metricsOf(timing);
      const account = await createAccount(timing, 1);
      expect((await snap(timing, account.apiKey)).response.status).toBe(500);
      expect(fake.requests).toHaveLength(2);
      const perAttempt = promptEstimateOf(fake.requests[0]);
      expect(perAttempt).toBeGreaterThan(100);
      const view = await timing.admin<{ tokens: unknown }>('GET', `/admin/v1/accounts/${account.accountId}`);
      expect(view.tokens).toEqual({ prompt: 0, completion: 0, estimatedPrompt: 0, estimatedCompletion: 0, failed: { prompt: 2 * perAttempt, completion: 0, calls: 1, unreportedCalls: 1, estimatedPrompt: 2 * perAttempt, estimatedCompletion: 0 } });
      const after = await metricsOf(timing);
      const added = (kind: string, source: string) => {
        const labels = { operation: 'predictSnap', model: MODEL, kind, upstream: 'primary', outcome: 'failure', source };
        return sampleValue(after, 'upstream_tokens_total', labels) - sampleValue(before, 'upstream_tokens_total', labels);
      };
      expect([added('prompt', 'estimated'), added('completion', 'estimated'), added('prompt', 'reported')]).toEqual([2 * perAttempt, 0, 0]);
    } finally {
      await timing.close();
    }
  });

  test('when an answer is cut at the token bound, then the 500 charges nothing and its tokens are counted as failed, in /metrics and in the account view', async () => {
    const before = await metricsOf(server);
    fake.script(reply(PREDICTION, { finishReason: 'length', usage: { prompt_tokens: 640, completion_tokens: 1000, total_tokens: 1640 } }));
    const account = await createAccount(server, 1);
    expect((await snap(server, account.apiKey)).response.status).toBe(500);
    const view = await server.admin<{ credits: number; tokens: unknown }>('GET', `/admin/v1/accounts/${account.accountId}`);
    expect(view).toMatchObject({ credits: 1, tokens: { prompt: 0, completion: 0, failed: { prompt: 640, completion: 1000, calls: 1, unreportedCalls: 0, estimatedPrompt: 0, estimatedCompletion: 0 } } });
    const after = await metricsOf(server);
    const labels = (kind: string) => ({ operation: 'predictSnap', model: MODEL, kind, upstream: 'primary', outcome: 'failure' });
    expect(sampleValue(after, 'upstream_tokens_total', labels('prompt')) - sampleValue(before, 'upstream_tokens_total', labels('prompt'))).toBe(640);
    expect(sampleValue(after, 'upstream_tokens_total', labels('completion')) - sampleValue(before, 'upstream_tokens_total', labels('completion'))).toBe(1000);
  });

  test('when every attempt fails without an answer, then the call is counted as unreported, in /metrics and in the account view', async () => {
    const before = await metricsOf(server);
    fake.script(stall(), stall());
    const account = await createAccount(server, 1);
    expect((await snap(server, account.apiKey)).response.status).toBe(500);
    const view = await server.admin<{ tokens: unknown }>('GET', `/admin/v1/accounts/${account.accountId}`);
    // Both attempts were sent: each one's prompt is estimated from what was sent.
    const perAttempt = promptEstimateOf(fake.requests[0]);
    expect(view.tokens).toEqual({ prompt: 0, completion: 0, estimatedPrompt: 0, estimatedCompletion: 0, failed: { prompt: 2 * perAttempt, completion: 0, calls: 1, unreportedCalls: 1, estimatedPrompt: 2 * perAttempt, estimatedCompletion: 0 } });
    const unreported = { operation: 'predictSnap', upstream: 'primary', outcome: 'failure' };
    expect(sampleValue(await metricsOf(server), 'upstream_unreported_calls_total', unreported) - sampleValue(before, 'upstream_unreported_calls_total', unreported)).toBe(1);
  });
});

describe('time budget', () => {
  test.each([
    ['a first byte slower than the attempt timeout', delay(3000, reply(PREDICTION))],
    ['a body that stalls after the headers', stall()],
  ])('when an attempt gets %s, then it is cut at the attempt timeout and the retry answers: 201, each attempt counted', async (_name, slow) => {
    const before = await metricsOf(server);
    fake.script(slow, reply(PREDICTION));
    const account = await createAccount(server, 1);
    const { response } = await snap(server, account.apiKey);
    // The retry answered within the call's budget: the first attempt was cut, not waited out.
    expect(response.status).toBe(201);
    expect(fake.requests).toHaveLength(2);
    const calls = { operation: 'predictSnap', upstream: 'primary' };
    expect(sampleValue(await metricsOf(server), 'upstream_calls_total', calls) - sampleValue(before, 'upstream_calls_total', calls)).toBe(2);
  });
});
