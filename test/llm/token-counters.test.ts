/**
 * Every token counted, checked against llama.cpp's own counters (docs/local-llm.md): the
 * service's count of a call that ended without a usage report (its prompt estimated from
 * what was sent, its completion a token per streamed chunk that arrived) beside what
 * llama.cpp's `/metrics` says it read and generated for it, for a call whose deadline ran
 * out mid-answer and for one whose deadline ran out while llama.cpp queued it behind
 * another (one slot). Both deadlines are set from the generation speed llama.cpp measured
 * just before, so that each falls where it must whatever the machine's load. The client that leaves is checked in real-model.test.ts. What each
 * check saw lands in test-output/llm/token-counters.json.
 *
 * The tolerances, and why, are in test/support/llama-tolerances.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount, PERSON, type TestAccount } from '../support/factories';
import { countersDelta, localCpuSettings, startLlamaServer, type LlamaCounters, type LlamaServer } from '../support/llama-server';
import { expectCompletionWithin, expectPromptWithin } from '../support/llama-tolerances';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

const OUTPUT = join(__dirname, '../../test-output/llm');
/** One call on this machine: a prefill of ~650 tokens at ~30 tok/s and up to 400 tokens at ~10 tok/s; generous. */
const CALL_MS = 300_000;
jest.setTimeout(3 * CALL_MS);
/** Startup refuses a deadline shorter than one attempt at the stated speed: these services state a fast server. */
const FAST = { OPENAI_MIN_TOKENS_PER_SECOND: '100000', OPENAI_FIRST_TOKEN_SECONDS: '0' };
/** The deadline of a call that waits in llama.cpp's queue behind a long one. */
const QUEUED_MS = 4_000;
/** How long the call in front keeps the one slot, at the speed measured just before, so that the queued call's deadline runs out behind it whatever the machine's load. */
const LONG_CALL_S = 15;
/**
 * Where a snap's answer is cut by the deadline of the timed-out call, at the speed measured
 * just before: the packaged model's answers ran from 133 to ~300 tokens, and its speed
 * from one call to the next by up to 1.7 times (27 then 46 tok/s).
 */
const CUT_AT_TOKENS = 30;

let llama: LlamaServer;
/** The settings of a local CPU server: a whole call fits. */
let patient: TestServer;
/** The same with a deadline of QUEUED_MS. */
let hasty: TestServer;
const seen: Record<string, unknown> = {};

beforeAll(async () => {
  llama = await startLlamaServer();
  patient = await startTestServer(localCpuSettings(llama, 400, CALL_MS));
  hasty = await startTestServer({ ...localCpuSettings(llama, 400, QUEUED_MS), ...FAST });
}, 3 * CALL_MS);

afterAll(async () => {
  await patient?.close();
  await hasty?.close();
  await llama?.stop();
  mkdirSync(OUTPUT, { recursive: true });
  writeFileSync(join(OUTPUT, 'token-counters.json'), JSON.stringify(seen, null, 2));
  writeFileSync(join(OUTPUT, 'token-counters-llama-server.log'), llama?.output() ?? '');
});

interface Tokens {
  prompt: number;
  completion: number;
  failed: { prompt: number; completion: number; calls: number; unreportedCalls: number; estimatedPrompt: number; estimatedCompletion: number };
}

const tokensOf = async (server: TestServer, account: TestAccount) => (await server.admin<{ tokens: Tokens }>('GET', `/admin/v1/accounts/${account.accountId}`)).tokens;

/** Until the one slot generates; /slots polled every 2 s (more often delays llama.cpp's notice of a closed connection). */
async function generating(): Promise<void> {
  await until(
    async () => {
      const [slot] = await llama.slots();
      return slot?.is_processing === true && (slot.next_token?.[0]?.n_decoded ?? 0) > 0;
    },
    CALL_MS,
    2000,
  );
}

/** llama.cpp's counters once its slot is idle (it adds a task's tokens when the task ends). */
async function countersWhenIdle(): Promise<LlamaCounters> {
  await until(async () => (await llama.slots())[0]?.is_processing === false, CALL_MS, 2000);
  return llama.counters();
}

/**
 * A call straight to llama.cpp, not through the service: `tokens` tokens of free text
 * (`ignore_eos`: it does not stop early), streamed with its usage, as llama.cpp reports it.
 */
async function direct(tokens: number): Promise<{ promptTokens: number; completionTokens: number }> {
  const response = await fetch(`${llama.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: llama.model,
      messages: [{ role: 'user', content: 'Count from one upwards, one number a line.' }],
      max_tokens: tokens,
      ignore_eos: true,
      stream: true,
      stream_options: { include_usage: true },
    }),
  });
  const events = (await response.text()).split('\n').filter((line) => line.startsWith('data: {'));
  const usage = events.map((line) => (JSON.parse(line.slice('data: '.length)) as { usage?: { prompt_tokens: number; completion_tokens: number } }).usage).find(Boolean);
  if (!usage) throw new Error('llama.cpp sent no usage');
  return { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
}

/** Tokens a second llama.cpp generated between two readings of its counters. */
const speedOf = (counted: LlamaCounters): number => counted.predictedTokens / counted.predictedSeconds;

describe('tokens counted against llama.cpp\'s counters', () => {
  test('when a call\'s deadline runs out while llama.cpp queues it behind another, then the service counts its prompt as sent and no completion, as llama.cpp counts it once the slot frees: it reads the prompt and generates a token before it sees the connection closed', async () => {
    const warm = await countersWhenIdle();
    await direct(32);
    const speed = speedOf(countersDelta(await countersWhenIdle(), warm));
    const longTokens = Math.min(4000, Math.max(64, Math.round(speed * LONG_CALL_S)));
    const account = await createAccount(hasty, 1);
    const before = await countersWhenIdle();
    const long = direct(longTokens);
    await generating();
    const response = await hasty.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    expect(response.status).toBe(500);
    // The slot was still busy with the long call when the deadline ran out: the call waited all its life.
    expect((await llama.slots())[0]?.is_processing).toBe(true);
    const longUsage = await long;
    const llamaDelta = countersDelta(await countersWhenIdle(), before);

    const tokens = await tokensOf(hasty, account);
    // What llama.cpp counted beyond the long call's own report is the queued call's.
    const queuedInLlama = { promptTokens: llamaDelta.promptTokens - longUsage.promptTokens, predictedTokens: llamaDelta.predictedTokens - longUsage.completionTokens };
    seen['queued'] = { counted: tokens.failed, llama: queuedInLlama, speed, longTokens, longUsage, llamaDelta };
    expect(tokens.failed).toMatchObject({ calls: 1, unreportedCalls: 1, completion: 0, estimatedCompletion: 0, estimatedPrompt: tokens.failed.prompt });
    expect(tokens.failed.prompt).toBeGreaterThan(0);
    // llama.cpp keeps a queued task whose connection closed: once the slot frees it reads the prompt and generates
    // until its first write fails (measured: 694 read, 1 generated), so the prompt counted as sent was paid for.
    expectPromptWithin(tokens.failed.estimatedPrompt, queuedInLlama.promptTokens);
    expectCompletionWithin(tokens.failed.estimatedCompletion, queuedInLlama.predictedTokens);
  });

  test('when a call\'s deadline runs out mid-answer, then its prompt estimate and the chunks that arrived are within the tolerances of what llama.cpp read and generated', async () => {
    // A whole snap first: its prompt is then in llama.cpp's cache, and its speed sets the deadline of the next
    // (the same prompt) to fall about CUT_AT_TOKENS into the answer.
    const warm = await countersWhenIdle();
    const first = await createAccount(patient, 1);
    expect([201, 500]).toContain((await patient.post('/api/v1/snap', PERSON, { 'x-api-key': first.apiKey })).status);
    const speed = speedOf(countersDelta(await countersWhenIdle(), warm));
    const deadlineMs = Math.min(60_000, Math.max(1000, Math.ceil((CUT_AT_TOKENS / speed) * 1000)));
    const timed = await startTestServer({ ...localCpuSettings(llama, 400, deadlineMs), ...FAST });
    try {
      const account = await createAccount(timed, 1);
      const before = await countersWhenIdle();
      const response = await timed.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
      const llamaDelta = countersDelta(await countersWhenIdle(), before);
      const tokens = await tokensOf(timed, account);
      seen['timedOut'] = { counted: tokens.failed, llama: llamaDelta, speed, deadlineMs, status: response.status };
      expect(response.status).toBe(500);
      expect(tokens.failed).toMatchObject({ calls: 1, unreportedCalls: 1, estimatedPrompt: tokens.failed.prompt, estimatedCompletion: tokens.failed.completion });
      expect(tokens.failed.completion).toBeGreaterThan(0);
      expectPromptWithin(tokens.failed.estimatedPrompt, llamaDelta.promptTokens);
      expectCompletionWithin(tokens.failed.estimatedCompletion, llamaDelta.predictedTokens);
    } finally {
      await timed.close();
    }
  });
});
