/**
 * Every token counted from what arrived (docs/upstream.md, "Every token counted"): the
 * service streams each upstream call, so an attempt that ends early (its bound ran out
 * mid-answer, its connection dropped, its client left) counts a completion token per text
 * chunk that arrived and its prompt from what was sent, marked estimated in the stored rows
 * (failed_call_usage, usage_tallies), the admin account view and /metrics; and the earlier
 * attempts of a call that a retry saved are counted too. Real `openai` client against the
 * fake server (which streams about one token a chunk), real PostgreSQL and Redis.
 */
import { bodyOf } from '../support/json';
import { reply, startFakeOpenAi, status, streamCut, textChunks, UPSTREAM_ANALYSIS, UPSTREAM_PREDICTION as PREDICTION, UPSTREAM_USAGE, type FakeOpenAi, FAKE_UPSTREAM_SPEED } from '../support/fake-openai-server';
import { promptEstimateOf } from '../support/prompt-estimate';
import { createAccount, PERSON } from '../support/factories';
import { sampleValue } from '../support/prometheus';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';
import { until } from '../support/until';

const MODEL = 'gpt-streamed-usage-test';
const UPSTREAM = { OPENAI_API_KEY: 'sk-streamed-0123456789', OPENAI_MODEL: MODEL, ...FAKE_UPSTREAM_SPEED, OPENAI_ATTEMPT_TIMEOUT_SECONDS: '1', OPENAI_TIMEOUT_SECONDS: '10' };
let fake: FakeOpenAi;
/** No retry: one attempt per call. */
let single: TestServer;
/** One retry. */
let retrying: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  single = await startTestServer({ ...UPSTREAM, OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_RETRIES: '0' });
  retrying = await startTestServer({ ...UPSTREAM, OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_RETRIES: '1' });
});

afterAll(async () => {
  await single?.close();
  await retrying?.close();
  await fake?.close();
});

beforeEach(() => fake.reset());

const metricsOf = async (target: TestServer): Promise<string> => (await fetch(`${target.adminUrl}/metrics`)).text();

/** What /metrics added between `before` and now, by kind, outcome and source. */
async function addedTokens(target: TestServer, before: string, outcome: 'success' | 'failure', source: 'reported' | 'estimated'): Promise<{ prompt: number; completion: number }> {
  const after = await metricsOf(target);
  const added = (kind: string) => {
    const labels = { operation: 'predictSnap', model: MODEL, kind, upstream: 'primary', outcome, source };
    return sampleValue(after, 'upstream_tokens_total', labels) - sampleValue(before, 'upstream_tokens_total', labels);
  };
  return { prompt: added('prompt'), completion: added('completion') };
}

/** The account's usage tallies row of this hour for `outcome` (migration 013). */
async function tallyOf(target: TestServer, accountId: number, outcome: string): Promise<Record<string, unknown>> {
  const row = await target.services.db('usage_tallies').where({ account_id: accountId, operation: 'createSnap', outcome, model: MODEL }).first();
  const numbers = ['upstream_calls', 'prompt_tokens', 'completion_tokens', 'estimated_prompt_tokens', 'estimated_completion_tokens', 'unreported_calls'];
  return Object.fromEntries(numbers.map((column) => [column, Number(row?.[column])]));
}

interface AccountView {
  credits: number;
  tokens: { prompt: number; completion: number; estimatedPrompt: number; estimatedCompletion: number; failed: Record<string, number> };
}

describe('an attempt that ends mid-stream', () => {
  test.each([
    ['its bound runs out while the answer stalls', 'stall', 'upstreamTimeout'],
    ['its connection drops', 'drop', 'upstreamOutage'],
  ] as const)('when %s, then its completion tokens are the chunks that arrived and its prompt what was sent, marked estimated in the rows, the account view and /metrics', async (_name, then, kind) => {
    const arrived = 7;
    expect(textChunks(JSON.stringify(PREDICTION)).length).toBeGreaterThan(arrived);
    fake.script(streamCut(PREDICTION, arrived, then));
    const before = await metricsOf(single);
    const account = await createAccount(single, 1);
    const response = await single.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    expect(response.status).toBe(500);
    const prompt = promptEstimateOf(fake.requests[0]);
    expect(prompt).toBeGreaterThan(100);

    const view = await single.admin<AccountView>('GET', `/admin/v1/accounts/${account.accountId}`);
    expect(view.credits).toBe(1);
    expect(view.tokens.failed).toEqual({ prompt, completion: arrived, calls: 1, unreportedCalls: 1, estimatedPrompt: prompt, estimatedCompletion: arrived });
    const failed = await single.services.db('failed_call_usage').where({ account_id: account.accountId }).first();
    expect(Number(failed.estimated_completion_tokens)).toBe(arrived);
    expect(await tallyOf(single, account.accountId, kind)).toEqual({
      upstream_calls: 1,
      prompt_tokens: 0,
      completion_tokens: 0,
      estimated_prompt_tokens: prompt,
      estimated_completion_tokens: arrived,
      unreported_calls: 0,
    });
    expect(await addedTokens(single, before, 'failure', 'estimated')).toEqual({ prompt, completion: arrived });
    expect(await addedTokens(single, before, 'failure', 'reported')).toEqual({ prompt: 0, completion: 0 });
  });

  test('when the client leaves mid-stream, then the chunks that arrived before it left are counted, estimated, and nothing is charged', async () => {
    const arrived = 5;
    fake.script(streamCut(PREDICTION, arrived, 'stall'));
    const before = await metricsOf(single);
    const account = await createAccount(single, 1);
    const client = new AbortController();
    const call = fetch(`${single.url}/api/v1/snap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
      body: JSON.stringify(PERSON),
      signal: client.signal,
    }).catch((error: Error) => error.name);
    // The chunks are written; the service, in this process, reads them before the next turns of the event loop end.
    await until(() => fake.cutsWritten() === 1);
    for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    client.abort();
    expect(await call).toBe('AbortError');
    await until(() => fake.inFlight() === 0);
    await until(async () => (await single.admin<AccountView & { held: number }>('GET', `/admin/v1/accounts/${account.accountId}`)).held === 0);
    const prompt = promptEstimateOf(fake.requests[0]);
    const view = await single.admin<AccountView>('GET', `/admin/v1/accounts/${account.accountId}`);
    expect(view.credits).toBe(1);
    expect(view.tokens.failed).toEqual({ prompt, completion: arrived, calls: 1, unreportedCalls: 1, estimatedPrompt: prompt, estimatedCompletion: arrived });
    expect(await addedTokens(single, before, 'failure', 'estimated')).toEqual({ prompt, completion: arrived });
  });
});

describe('a call a retry saved', () => {
  test('when the first attempt times out mid-stream and the retry answers, then the snap stores the retry\'s reported usage and the first attempt is counted too, estimated', async () => {
    const arrived = 6;
    fake.script(streamCut(PREDICTION, arrived, 'stall'), reply(PREDICTION));
    const before = await metricsOf(retrying);
    const account = await createAccount(retrying, 1);
    const response = await retrying.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    const body = await bodyOf(response);
    expect(response.status).toBe(201);
    expect(fake.requests).toHaveLength(2);
    const prompt = promptEstimateOf(fake.requests[0]);

    const row = await retrying.services.db('snaps').where({ id: body.data.snapId }).first();
    expect(row).toMatchObject({ prompt_tokens: UPSTREAM_USAGE.prompt_tokens, completion_tokens: UPSTREAM_USAGE.completion_tokens });
    const view = await retrying.admin<AccountView>('GET', `/admin/v1/accounts/${account.accountId}`);
    expect(view.credits).toBe(0);
    expect(view.tokens).toEqual({
      prompt: UPSTREAM_USAGE.prompt_tokens,
      completion: UPSTREAM_USAGE.completion_tokens,
      estimatedPrompt: 0,
      estimatedCompletion: 0,
      failed: { prompt, completion: arrived, calls: 1, unreportedCalls: 1, estimatedPrompt: prompt, estimatedCompletion: arrived },
    });
    expect(await tallyOf(retrying, account.accountId, 'success')).toMatchObject({ upstream_calls: 1, estimated_prompt_tokens: prompt, estimated_completion_tokens: arrived });
    expect(await addedTokens(retrying, before, 'failure', 'estimated')).toEqual({ prompt, completion: arrived });
    expect(await addedTokens(retrying, before, 'success', 'reported')).toEqual({ prompt: UPSTREAM_USAGE.prompt_tokens, completion: UPSTREAM_USAGE.completion_tokens });
  });

  test('when the first attempt is a 503 and the retry answers, then the 503\'s prompt is counted, estimated, with no completion', async () => {
    fake.script(status(503, undefined, { headers: { 'retry-after-ms': '0' } }), reply(PREDICTION));
    const account = await createAccount(retrying, 1);
    expect((await retrying.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status).toBe(201);
    const prompt = promptEstimateOf(fake.requests[0]);
    const view = await retrying.admin<AccountView>('GET', `/admin/v1/accounts/${account.accountId}`);
    expect(view.tokens.failed).toEqual({ prompt, completion: 0, calls: 1, unreportedCalls: 1, estimatedPrompt: prompt, estimatedCompletion: 0 });
  });
});

describe('an answer without a usage report', () => {
  test('when a snap and an analysis are answered with no usage at all, then each is stored and charged with the estimate of its tokens, which the usage view lists as estimated', async () => {
    const account = await createAccount(single, 2);
    fake.script(reply(PREDICTION, { usage: null }));
    const snapped = await single.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    expect(snapped.status).toBe(201);
    fake.script(reply(UPSTREAM_ANALYSIS, { usage: null }));
    const analysed = await single.post('/api/v1/snap/comms', { snapId: (await bodyOf(snapped)).data.snapId }, { 'x-api-key': account.apiKey });
    expect(analysed.status).toBe(201);
    const prompt = promptEstimateOf(fake.requests[0]) + promptEstimateOf(fake.requests[1]);
    const completion = textChunks(JSON.stringify(PREDICTION)).length + textChunks(JSON.stringify(UPSTREAM_ANALYSIS)).length;

    const view = await single.admin<AccountView>('GET', `/admin/v1/accounts/${account.accountId}`);
    expect(view.tokens).toMatchObject({ prompt, completion, estimatedPrompt: prompt, estimatedCompletion: completion, failed: { calls: 0 } });
    const now = Date.now();
    const range = new URLSearchParams({ from: new Date(now - 3_600_000).toISOString(), to: new Date(now + 3_600_000).toISOString(), granularity: 'day' });
    const usage = await single.admin<{ buckets: { tokens: unknown[] }[] }>('GET', `/admin/v1/accounts/${account.accountId}/usage?${range}`);
    expect(usage.buckets.flatMap((bucket) => bucket.tokens)).toEqual([{ model: MODEL, calls: 2, reported: { prompt: 0, completion: 0 }, estimated: { prompt, completion }, unreportedCalls: 0 }]);
    const exportResponse = await fetch(`${single.adminUrl}/admin/v1/accounts/${account.accountId}/export`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    const exported = (await exportResponse.json()) as { snaps: Record<string, unknown>[]; commsAnalyses: Record<string, unknown>[] };
    expect([...exported.snaps, ...exported.commsAnalyses].map((row) => row.tokensEstimated)).toEqual([true, true]);
  });
});
