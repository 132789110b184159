/**
 * The real-model tier (docs/local-llm.md): the service's HTTP API on real PostgreSQL and
 * Redis, against llama.cpp's own server running SmolLM2-135M on the CPU, started once
 * for the tier. Nothing here judges the predictions: each call ends either 201 with every
 * field valid against the spec, or 500 with nothing charged, and every token is counted.
 * Inference is slow on a busy 2-core machine: few calls, tight token bounds, the
 * settings of a local CPU server (long timeouts, no retry, length bounds in the schema),
 * no timing assertion, every wait bounded.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodyOf } from '../support/json';
import { createAccount, PERSON, type TestAccount } from '../support/factories';
import { startCappingProxy } from '../support/capping-proxy';
import { countersDelta as delta, localCpuSettings, startLlamaServer, type LlamaServer } from '../support/llama-server';
import { expectCompletionWithin, expectPromptWithin } from '../support/llama-tolerances';
import { sampleValue } from '../support/prometheus';
import { responseSchemaErrors } from '../support/response-schema';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

const OUTPUT = join(__dirname, '../../test-output/llm');

/** One call on this machine: a prefill of ~650 tokens at ~30 tok/s and up to 400 tokens at ~10 tok/s; generous. */
const CALL_MS = 300_000;
jest.setTimeout(3 * CALL_MS);

let llama: LlamaServer;
let server: TestServer;
/** The embedded predictor on the same database: stored snaps for the comms calls, without inference. */
let embedded: TestServer;

beforeAll(async () => {
  llama = await startLlamaServer();
  server = await startTestServer(localCpuSettings(llama, 400, CALL_MS));
  embedded = await startTestServer();
}, 3 * CALL_MS);

afterAll(async () => {
  await server?.close();
  await embedded?.close();
  await llama?.stop();
  // For a failure's diagnosis: what llama.cpp's server printed, and the service's log.
  mkdirSync(OUTPUT, { recursive: true });
  writeFileSync(join(OUTPUT, 'llama-server.log'), llama?.output() ?? '');
  writeFileSync(join(OUTPUT, 'service.log'), server?.logs() ?? '');
});

interface Usage {
  credits: number;
  held: number;
  tokens: { prompt: number; completion: number; estimatedPrompt: number; estimatedCompletion: number; failed: { prompt: number; completion: number; calls: number; unreportedCalls: number; estimatedPrompt: number; estimatedCompletion: number } };
}

const accountView = (account: TestAccount) => server.admin<Usage>('GET', `/admin/v1/accounts/${account.accountId}`);
const metricsOf = async (target: TestServer) => (await fetch(`${target.adminUrl}/metrics`)).text();

/** Tokens of both kinds, both outcomes and both sources (reported, estimated) counted in /metrics for an operation. */
function countedTokens(metrics: string, operation: string): number {
  return ['prompt', 'completion']
    .flatMap((kind) => ['success', 'failure'].flatMap((outcome) => ['reported', 'estimated'].map((source) => sampleValue(metrics, 'upstream_tokens_total', { operation, kind, outcome, source, upstream: 'primary' }))))
    .reduce((a, b) => a + b, 0);
}

const allTokens = (view: Usage) => view.tokens.prompt + view.tokens.completion + view.tokens.failed.prompt + view.tokens.failed.completion;

/**
 * Until the server generates the answer (its prompt is processed), `decoded` tokens of it at least. Polled every 250 ms:
 * llama.cpp notices a closed client connection only when its waiting HTTP thread sleeps a
 * whole second without another result (a /slots answer) waking it, so the waits after an
 * abort read the server's log instead, and /slots only every 2 s.
 */
async function waitForGeneration(decoded = 1): Promise<void> {
  await until(
    async () => {
      const [slot] = await llama.slots();
      return slot?.is_processing === true && (slot.next_token?.[0]?.n_decoded ?? 0) >= decoded;
    },
    CALL_MS,
    250,
  );
}

describe('the real model behind the API', () => {
  test('when a snap is asked for, then it is 201 with every field valid against the spec, or 500 uncharged, and its tokens are counted', async () => {
    const account = await createAccount(server, 1);
    const before = await metricsOf(server);
    const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    const body = await bodyOf(response);
    const view = await accountView(account);
    expect([201, 500]).toContain(response.status);
    if (response.status === 201) {
      expect(responseSchemaErrors('SnapCreated', body)).toEqual([]);
      expect(view.credits).toBe(0);
      expect(view.tokens.prompt).toBeGreaterThan(0);
    } else {
      expect(view.credits).toBe(1);
      expect(view.tokens.failed.calls).toBe(1);
    }
    expect(allTokens(view)).toBeGreaterThan(0);
    expect(countedTokens(await metricsOf(server), 'predictSnap') - countedTokens(before, 'predictSnap')).toBe(allTokens(view));
  });

  test('when the notes are Japanese, then the grammar\'s text limits hold in tokens: the answer ends before the token bound, never cut at length', async () => {
    const account = await createAccount(server, 1);
    const before = await llama.counters();
    const notes = '数字を必ず二度確認し、細かい記録を残し、決定の前に表計算シートを監査する。手順を守り、誤りを見逃さない。';
    const response = await server.post('/api/v1/snap', { ...PERSON, notes, jobType: '会計監査人' }, { 'x-api-key': account.apiKey });
    const generated = delta(await llama.counters(), before).predictedTokens;

    expect([201, 500]).toContain(response.status);
    // 400 is the snap's token bound here (localCpuSettings): an answer cut at length would have spent all of it.
    expect(generated).toBeGreaterThan(0);
    expect(generated).toBeLessThan(400);
  });

  test('when a comms analysis is asked for, then it is 201 with the stored snap\'s profile and every field valid, or 500 uncharged, and its tokens are counted', async () => {
    const account = await createAccount(server, 2);
    const snap = await bodyOf(await embedded.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey }));
    const before = await metricsOf(server);
    const response = await server.post('/api/v1/snap/comms', { snapId: snap.data.snapId, channel: 'email' }, { 'x-api-key': account.apiKey });
    const body = await bodyOf(response);
    const view = await accountView(account);
    expect([201, 500]).toContain(response.status);
    if (response.status === 201) {
      expect(responseSchemaErrors('CommsCreated', body)).toEqual([]);
      expect(body.data.commsResponse).toMatchObject({ profile: snap.data.snapResponse.profile, primary_code: snap.data.snapResponse.primary_code });
      expect(view.credits).toBe(0);
    } else {
      expect(view.credits).toBe(1);
    }
    const commsTokens = view.tokens.failed.prompt + view.tokens.failed.completion + (response.status === 201 ? view.tokens.prompt + view.tokens.completion : 0);
    expect(commsTokens).toBeGreaterThan(0);
    expect(countedTokens(await metricsOf(server), 'analyseComms') - countedTokens(before, 'analyseComms')).toBe(commsTokens);
  });

  test('when the token bound is too small for any answer, then the snap is 500, uncharged, and the tokens it cost are counted as failed', async () => {
    // Start-up refuses a bound this small: a proxy lowers each request's bound to 16 on its way to llama.cpp.
    const capping = await startCappingProxy(llama.baseURL, 16);
    const tight = await startTestServer(localCpuSettings(llama, 400, CALL_MS, capping.baseURL));
    try {
      const account = await createAccount(tight, 1);
      const before = await metricsOf(tight);
      const response = await tight.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
      expect(response.status).toBe(500);
      const view = await tight.admin<Usage>('GET', `/admin/v1/accounts/${account.accountId}`);
      expect(view.credits).toBe(1);
      expect(view.tokens.failed).toMatchObject({ calls: 1, unreportedCalls: 0, completion: 16 });
      expect(view.tokens.failed.prompt).toBeGreaterThan(0);
      expect(tight.logs()).toContain("finish_reason 'length'");
      expect(countedTokens(await metricsOf(tight), 'predictSnap') - countedTokens(before, 'predictSnap')).toBe(allTokens(view));
    } finally {
      await tight.close();
      await capping.close();
    }
  });

  test('when the client gives up mid-call, then llama.cpp cancels the task, nothing is charged and the request is logged and counted as 499', async () => {
    const account = await createAccount(server, 1);
    const client = new AbortController();
    const countedBefore = await llama.counters();
    const call = fetch(`${server.url}/api/v1/snap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
      body: JSON.stringify(PERSON),
      signal: client.signal,
    }).catch((error: unknown) => error);
    const cancelsBefore = llama.output().split('cancel task').length;
    // Some of the answer streamed: the chunks that arrived are counted.
    await waitForGeneration(20);
    client.abort();
    await call;
    // llama.cpp logs the cancellation (`srv stop: cancel task`); then the slot is free.
    await until(() => llama.output().split('cancel task').length === cancelsBefore + 1, CALL_MS, 500);
    await until(async () => (await llama.slots())[0]?.is_processing === false, CALL_MS, 2000);
    await until(async () => (await accountView(account)).held === 0, CALL_MS);
    const view = await accountView(account);
    expect(view.credits).toBe(1);
    // No usage report: its prompt is counted by the estimate of what was sent and its completion
    // a token per chunk that arrived, both marked as estimated, and checked against llama.cpp's
    // own counters (the prompt it read, evaluated or from its cache; the tokens it generated
    // before it saw the connection closed) within test/support/llama-tolerances.ts.
    const { failed } = view.tokens;
    expect(failed).toMatchObject({ calls: 1, unreportedCalls: 1, estimatedPrompt: failed.prompt, estimatedCompletion: failed.completion });
    expect(failed.completion).toBeGreaterThan(0);
    const counted = delta(await llama.counters(), countedBefore);
    mkdirSync(OUTPUT, { recursive: true });
    writeFileSync(join(OUTPUT, 'client-leaves-tokens.json'), JSON.stringify({ counted: failed, llama: counted }, null, 2));
    expectPromptWithin(failed.estimatedPrompt, counted.promptTokens);
    expectCompletionWithin(failed.estimatedCompletion, counted.predictedTokens);
    await until(() => server.logs().includes('"statusCode":499'), CALL_MS);
    expect(sampleValue(await metricsOf(server), 'http_requests_total', { operation: 'createSnap', status: '499' })).toBeGreaterThan(0);
  });

  test('when the model server dies mid-call, then the call is a 500, uncharged, and after its restart the next call reaches it without restarting the service', async () => {
    const account = await createAccount(server, 2);
    const call = server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    await waitForGeneration();
    await llama.kill();
    expect((await call).status).toBe(500);
    const afterCrash = await accountView(account);
    expect(afterCrash.credits).toBe(2);
    expect(afterCrash.tokens.failed).toMatchObject({ calls: 1, unreportedCalls: 1 });

    await llama.restart();
    const next = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    expect([201, 500]).toContain(next.status);
    const view = await accountView(account);
    // The restarted server answered: its usage was reported, whether the answer was usable (201) or not.
    expect(view.tokens.failed.unreportedCalls).toBe(1);
    expect(allTokens(view)).toBeGreaterThan(0);
    expect(view.credits).toBe(next.status === 201 ? 1 : 2);
  });
});
