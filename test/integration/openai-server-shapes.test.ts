/**
 * What real OpenAI-compatible servers send (OpenAI, Azure, vLLM, Ollama, llama.cpp,
 * LiteLLM), through the whole service with the real `openai` client against the fake:
 * each shape maps to a 201 (with nulls where the answer gave nothing usable) or to the
 * contract's 500 with nothing stored and nothing charged. A slow first byte and a body
 * that stalls after the headers are in openai-upstream-economy.test.ts (time budget).
 */
import { bodyOf } from '../support/json';
import {
  ollamaError,
  refuse,
  reply,
  replyRaw,
  startFakeOpenAi,
  status,
  UPSTREAM_PREDICTION as PREDICTION,
  vllmError,
  type Behaviour,
  type FakeOpenAi,
  FAKE_UPSTREAM_SPEED,
} from '../support/fake-openai-server';
import { balanceOf, createAccount, PERSON, snapCountOf } from '../support/factories';
import { sampleValue } from '../support/prometheus';
import { startTestServer, type TestServer } from '../support/test-server';

let fake: FakeOpenAi;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({
    OPENAI_API_KEY: 'sk-shapes-0123456789',
    OPENAI_BASE_URL: fake.baseURL,
    ...FAKE_UPSTREAM_SPEED,
    OPENAI_TIMEOUT_SECONDS: '3',
    OPENAI_MAX_RETRIES: '1',
  });
});

afterAll(async () => {
  await server.close();
  await fake.close();
});

beforeEach(() => fake.reset());

async function snapWith(behaviours: Behaviour[]) {
  fake.script(...behaviours);
  const account = await createAccount(server, 1);
  const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
  return { account, response, body: await bodyOf(response) };
}

const JSON_TEXT = JSON.stringify(PREDICTION);
const inMs = (ms: number) => new Date(Date.now() + ms).toUTCString();

describe('answers that are read', () => {
  test.each<[string, Behaviour[], number]>([
    ['content as a list of text parts', [replyRaw([{ type: 'text', text: JSON_TEXT.slice(0, 20) }, { type: 'text', text: JSON_TEXT.slice(20) }])], 1],
    ['no usage at all', [reply(PREDICTION, { usage: null })], 1],
    ['a gzip-encoded body', [reply(PREDICTION, { gzip: true })], 1],
    ['<think>…</think> before the JSON', [replyRaw(`<think>The notes mention audits.</think>\n${JSON_TEXT}`)], 1],
    ['a markdown fence around the JSON', [replyRaw(`\`\`\`json\n${JSON_TEXT}\n\`\`\``)], 1],
    ['a 429 with retry-after-ms, then the answer', [status(429, undefined, { headers: { 'retry-after-ms': '50' } }), reply(PREDICTION)], 2],
    ['a 429 with an HTTP-date Retry-After, then the answer', [status(429, undefined, { headers: { 'retry-after': inMs(1000) } }), reply(PREDICTION)], 2],
  ])('when the upstream sends %s, then it is a 201 with the prediction', async (_name, behaviours, requests) => {
    const { response, body } = await snapWith(behaviours);
    expect(response.status).toBe(201);
    // Confidence Low: PERSON's notes are an auditor's, and the lexicon does not confirm the model's Catalyst.
    expect(body.data.snapResponse).toEqual({ name: PERSON.name, ...PREDICTION, confidence: 'Low' });
    expect(fake.requests).toHaveLength(requests);
  });

  test('when a server ignored the schema and answered other keys, then it is a 201 with nulls, counted in upstream_schema_mismatches_total', async () => {
    const metrics = async () => sampleValue(await (await fetch(`${server.adminUrl}/metrics`)).text(), 'upstream_schema_mismatches_total', { operation: 'predictSnap', upstream: 'primary' });
    const before = await metrics();
    const { response, body } = await snapWith([reply({ personality: 'Catalyst', profile: 'Catalyst' })]);
    expect(response.status).toBe(201);
    expect(body.data.snapResponse).toMatchObject({ profile: 'Catalyst', secondary_profile: null, reasoning: null });
    expect((await metrics()) - before).toBe(1);
  });
});

describe('answers that fail: the contract 500, nothing stored, nothing charged', () => {
  test.each<[string, Behaviour[], number]>([
    ['a refusal', [refuse('I cannot help with that.')], 1],
    ['a 400 for an unsupported schema keyword (vLLM)', [vllmError(400, "Unsupported JSON schema keyword 'anyOf'")], 1],
    ["Ollama's error body (a plain string)", [ollamaError(404, "model 'llama3.1' not found, try pulling it first")], 1],
    ['a 429 insufficient_quota (not retried)', [status(429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } }, { headers: { 'retry-after-ms': '0' } })], 1],
    ["Azure's content_filter 400", [status(400, { error: { message: 'The response was filtered', type: null, param: 'prompt', code: 'content_filter', status: 400, innererror: { code: 'ResponsibleAIPolicyViolation' } } })], 1],
    ['truncated JSON reported as finish_reason stop (LiteLLM over Ollama)', [replyRaw(JSON_TEXT.slice(0, 40))], 1],
    ['whitespace up to the token bound', [replyRaw(`{${' '.repeat(5000)}`, { finishReason: 'length' })], 1],
  ])('when the upstream sends %s', async (_name, behaviours, requests) => {
    const { account, response, body } = await snapWith(behaviours);
    expect(response.status).toBe(500);
    expect(body.message).toBe('Failed to generate snap Please try again later');
    expect(fake.requests).toHaveLength(requests);
    expect(await balanceOf(server, account.accountId)).toBe(1);
    expect(await snapCountOf(server, account.accountId)).toBe(0);
  });
});
