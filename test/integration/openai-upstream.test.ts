/**
 * The OpenAI-compatible upstream through the whole service: the real `openai` client
 * against a local fake server, real PostgreSQL and Redis. Every failure maps to the
 * contract's 500, stores nothing and charges nothing.
 */
import { bodyOf } from '../support/json';
import { delay, garbage, hang, refuse, reply, replyRaw, startFakeOpenAi, status, type Behaviour, type FakeOpenAi, UPSTREAM_ANALYSIS, UPSTREAM_PREDICTION as PREDICTION, FAKE_UPSTREAM_SPEED } from '../support/fake-openai-server';
import { balanceOf, commsCountOf, createAccount, PERSON, snapCountOf } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';

const OPENAI_API_KEY = 'sk-upstream-secret-0123456789';
const MODEL = 'gpt-test-mini';
let fake: FakeOpenAi;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({
    OPENAI_API_KEY,
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_MODEL: MODEL,
    ...FAKE_UPSTREAM_SPEED,
    // 4 s, each attempt cut at 2 s: room for a busy machine to carry an immediate fake
    // reply (at 1 s, an attempt had 0.5 s); the slow replies below take longer than all 4 s.
    OPENAI_TIMEOUT_SECONDS: '4',
    OPENAI_MAX_RETRIES: '1',
    // One server for every case: the outages scripted one after another would open the
    // circuit breaker and skip the upstream for the cases after them (upstream-breaker.test.ts).
    // They also use up the upstream's retry tokens (upstream-retries.test.ts): the cases that
    // count a retry come first, and the later ones do not depend on one.
    OPENAI_BREAKER_FAILURES: '1000',
    LOG_LEVEL: 'info',
  });
});

afterAll(async () => {
  await server.close();
  await fake.close();
});

beforeEach(() => {
  fake.reset();
});

async function snapWith(behaviours: Behaviour[], credits = 3) {
  fake.script(...behaviours);
  const account = await createAccount(server, credits);
  const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey, 'x-request-id': `req-${Date.now()}` });
  return { account, response, body: await bodyOf(response) };
}

describe('OpenAI upstream: createSnap', () => {
  test('when the upstream predicts, then the snap carries its prediction and is stored with the model and prompt version', async () => {
    const { account, response, body } = await snapWith([reply(PREDICTION)]);
    expect(response.status).toBe(201);
    // The confidence is earned, not the model's: PERSON's notes are an auditor's, and the lexicon does not confirm Catalyst.
    expect(body.data.snapResponse).toEqual({ name: PERSON.name, ...PREDICTION, confidence: 'Low' });
    const row = await server.services.db('snaps').where({ id: body.data.snapId }).first();
    expect(row).toMatchObject({ predictor: 'openai', model: MODEL, prompt_version: 'snap-v3' });
    expect(await balanceOf(server, account.accountId)).toBe(2);

    const [sent] = fake.requests;
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe(`Bearer ${OPENAI_API_KEY}`);
    expect(sent?.chat).toMatchObject({ model: MODEL, responseFormatName: 'snap_prediction' });
  });

  test.each([
    ['fields are missing', { profile: 'Catalyst' }, { profile: 'Catalyst', primary_code: 'CT', secondary_profile: null, secondary_code: null, reasoning: null, summary: null, secondary_profile_summary: null }],
    ['fields have the wrong type', { ...PREDICTION, confidence: 3, reasoning: ['x'], summary: {} }, { ...PREDICTION, reasoning: null, summary: null }],
    ['the profile is outside the taxonomy', { ...PREDICTION, profile: 'Wizard', primary_code: 'WZ' }, { ...PREDICTION, profile: null, primary_code: null, secondary_profile: null, secondary_code: null, summary: null, secondary_profile_summary: null }],
    ['the codes are missing', { ...PREDICTION, primary_code: undefined, secondary_code: undefined }, PREDICTION],
  ])('when %s, then it is still a 201 with nulls where the prediction gave nothing usable, and a confidence the evidence earned', async (_name, given, want) => {
    const { response, body } = await snapWith([reply(given)]);
    expect(response.status).toBe(201);
    expect(body.data.snapResponse).toEqual({ name: PERSON.name, ...want, confidence: 'Low' });
  });

  test.each([
    ['the secondary profile is Visionary', { secondary_profile: 'Visionary', secondary_code: 'VI' }],
    ['both profiles are Visionary', { profile: 'Visionary', primary_code: 'VI', secondary_profile: 'Visionary', secondary_code: 'VI' }],
  ])('when %s, then it answers the contract 500 and charges nothing', async (_name, secondary) => {
    const { account, response, body } = await snapWith([reply({ ...PREDICTION, ...secondary })]);
    const message = 'Secondary profile predicted as Visionary which is not allowed please try it again';
    expect(response.status).toBe(500);
    expect(body).toEqual({ success: false, message, error: message, statusCode: 500, timestamp: expect.any(String) });
    expect(await balanceOf(server, account.accountId)).toBe(3);
    expect(await snapCountOf(server, account.accountId)).toBe(0);
  });

  describe('when the upstream fails, then it answers 500 "Failed to generate snap Please try again later", stores nothing and charges nothing', () => {
    test.each<[string, Behaviour[], number]>([
      ['500 twice (retried once)', [status(500), status(500)], 2],
      ['429 twice (retried once)', [status(429, undefined, { headers: { 'retry-after-ms': '0' } }), status(429, undefined, { headers: { 'retry-after-ms': '0' } })], 2],
      ['401 from the upstream', [status(401)], 1],
      // An attempt has half of OPENAI_TIMEOUT_SECONDS: once it is cut, the half left cannot hold a back-off and another attempt as long, so there is no retry.
      ['a reply slower than OPENAI_TIMEOUT_SECONDS (one attempt, not retried)', [delay(5000, reply(PREDICTION))], 1],
      ['a hang (one attempt, not retried)', [hang()], 1],
      ['a body that is not a stream of events (an outage, not retried)', [garbage()], 1],
      ['finish_reason length', [replyRaw('{"profile": "Catal', { finishReason: 'length' })], 1],
      ['a refusal', [refuse('I cannot help with that.')], 1],
      ['content that is not JSON', [replyRaw('Sure! The profile is Catalyst.')], 1],
    ])('%s', async (_name, behaviours, attempts) => {
      const { account, response, body } = await snapWith(behaviours);
      const message = 'Failed to generate snap Please try again later';
      expect(response.status).toBe(500);
      expect(body).toEqual({ success: false, message, error: message, statusCode: 500, timestamp: expect.any(String) });
      expect(fake.requests).toHaveLength(attempts);
      expect(await balanceOf(server, account.accountId)).toBe(3);
      expect(await snapCountOf(server, account.accountId)).toBe(0);
    });
  });

  test('when the upstream fails, then the log has the request id and upstream status, never the keys or the notes', async () => {
    fake.script(status(503, undefined, { headers: { 'x-should-retry': 'false' } }));
    const account = await createAccount(server, 1);
    await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey, 'x-request-id': 'req-log-check' });
    const line = server
      .logs()
      .split('\n')
      .find((l) => l.includes('req-log-check') && l.includes('upstreamStatus'));
    expect(line).toBeDefined();
    expect(JSON.parse(line ?? '{}')).toMatchObject({ upstreamStatus: 503, msg: 'Failed to generate snap Please try again later' });
    const logs = server.logs();
    expect(logs).not.toContain(OPENAI_API_KEY);
    expect(logs).not.toContain(account.apiKey);
    expect(logs).not.toContain(PERSON.notes);
  });

  test('when 50 requests wait on a slow upstream at once, then their calls are in flight together, not one after another', async () => {
    const slowFake = await startFakeOpenAi();
    slowFake.always(delay(3000, reply(PREDICTION)));
    const patient = await startTestServer({ OPENAI_API_KEY, OPENAI_BASE_URL: slowFake.baseURL, ...FAKE_UPSTREAM_SPEED, OPENAI_TIMEOUT_SECONDS: '30' });
    try {
      const account = await createAccount(patient, 50);
      const responses = await Promise.all(Array.from({ length: 50 }, () => patient.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })));
      expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
      // One after another would have one call in flight; a database connection held across each call, at most the pool's 10.
      expect(slowFake.maxInFlight()).toBeGreaterThan(10);
      expect(await balanceOf(patient, account.accountId)).toBe(0);
    } finally {
      await patient.close();
      await slowFake.close();
    }
  });
});

describe('OpenAI upstream: createCommsAnalysis', () => {
  const ANALYSIS = UPSTREAM_ANALYSIS;

  async function snapFor(credits: number) {
    fake.script(reply(PREDICTION));
    const account = await createAccount(server, credits);
    const snap = await bodyOf(await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey }));
    return { account, snapId: snap.data.snapId as number };
  }

  test('when the upstream analyses, then the analysis is returned, stored and charged', async () => {
    const { account, snapId } = await snapFor(3);
    fake.requests.length = 0;
    fake.script(reply(ANALYSIS));
    const response = await server.post('/api/v1/snap/comms', { snapId, channel: 'email', draft: 'maybe we could talk' }, { 'x-api-key': account.apiKey });
    const body = await bodyOf(response);
    expect(response.status).toBe(201);
    // The profile is the stored snap's, whatever the model named (ANALYSIS names another one).
    expect(ANALYSIS.profile).not.toBe(PREDICTION.profile);
    expect(body.data).toEqual({ commsId: expect.any(Number), snapId, commsResponse: { ...ANALYSIS, profile: PREDICTION.profile, primary_code: PREDICTION.primary_code } });
    expect(fake.requests[0]?.chat?.responseFormatName).toBe('comms_analysis');
    const row = await server.services.db('comms_analyses').where({ id: body.data.commsId }).first();
    expect(row).toMatchObject({ account_id: String(account.accountId), snap_id: String(snapId), predictor: 'openai', model: MODEL, prompt_version: 'comms-v2' });
    expect(row.response).toEqual(body.data.commsResponse);
    expect(await commsCountOf(server, account.accountId)).toBe(1);
    expect(await balanceOf(server, account.accountId)).toBe(1);
  });

  test('when fields are missing, then the answer has no substance: the comms 500, nothing stored or charged', async () => {
    const { account, snapId } = await snapFor(3);
    fake.script(reply({ summary: 'Short.' }));
    const response = await server.post('/api/v1/snap/comms', { snapId }, { 'x-api-key': account.apiKey });
    const message = 'Failed to generate communication analysis Please try again later';
    expect(response.status).toBe(500);
    expect(await bodyOf(response)).toEqual({ success: false, message, error: message, statusCode: 500, timestamp: expect.any(String) });
    expect(await commsCountOf(server, account.accountId)).toBe(0);
    expect(await balanceOf(server, account.accountId)).toBe(2);
  });

  test('when do and dont items agree and issues quote what the draft does not hold, then they are dropped and the rest is a 201', async () => {
    const { account, snapId } = await snapFor(3);
    const draft = 'Hi, could we maybe talk about the audit plan sometime?';
    fake.script(reply({
      ...ANALYSIS,
      do: ['Be specific', 'Lead with data'],
      dont: ['lead with data.', 'Hype'],
      draft_analysis: { fit_score: 40, rewrite: 'Could we agree the audit plan by Friday?', issues: [
        { excerpt: 'maybe', suggestion: 'Drop "maybe".' },
        { excerpt: 'per my last email', suggestion: 'Not in the draft.' },
        { excerpt: 'sometime?', suggestion: 'e.g. "sometime?"' },
      ] },
    }));
    const response = await server.post('/api/v1/snap/comms', { snapId, draft }, { 'x-api-key': account.apiKey });
    expect(response.status).toBe(201);
    const { commsResponse } = (await bodyOf(response)).data;
    expect([commsResponse.do, commsResponse.dont]).toEqual([['Be specific'], ['Hype']]);
    expect(commsResponse.draft_analysis.issues).toEqual([{ excerpt: 'maybe', suggestion: 'Drop "maybe".' }]);
  });

  test('when the upstream fails, then it answers the comms 500 and charges nothing', async () => {
    const { account, snapId } = await snapFor(3);
    fake.script(garbage(), garbage());
    const response = await server.post('/api/v1/snap/comms', { snapId }, { 'x-api-key': account.apiKey });
    const message = 'Failed to generate communication analysis Please try again later';
    expect(response.status).toBe(500);
    expect(await bodyOf(response)).toEqual({ success: false, message, error: message, statusCode: 500, timestamp: expect.any(String) });
    expect(await balanceOf(server, account.accountId)).toBe(2);
  });
});

describe('OpenAI upstream: readiness', () => {
  const readiness = async () => (await fetch(`${server.adminUrl}/readyz`)).json() as Promise<{ status: string; checks: Record<string, string> }>;

  test('when the latest call got no answer, then /readyz says upstream degraded (still 200), and ok again after the next answer', async () => {
    fake.always(status(503)); // however many attempts the call makes (retries may be throttled by now)
    expect((await snapWith([])).response.status).toBe(500);
    const failing = await fetch(`${server.adminUrl}/readyz`);
    expect(failing.status).toBe(200);
    expect(await failing.json()).toMatchObject({ status: 'degraded', checks: { postgresql: 'ok', upstream: 'degraded' } });

    expect((await snapWith([reply(PREDICTION)])).response.status).toBe(201);
    expect(await readiness()).toMatchObject({ status: 'ok', checks: { upstream: 'ok' } });
  });

  test('when the answer was unusable, then the upstream still counts as answering', async () => {
    expect((await snapWith([replyRaw('{"profile": "Catal', { finishReason: 'length' })])).response.status).toBe(500);
    expect((await readiness()).checks['upstream']).toBe('ok');
  });
});
