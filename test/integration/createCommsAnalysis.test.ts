/** POST /api/v1/snap/comms with the embedded predictor, on real PostgreSQL and Redis. */
import { bodyOf } from '../support/json';
import { balanceOf, commsCountOf, createAccount, creditsOf, ledgerOf, PERSON, type TestAccount } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

async function snapOf(account: TestAccount): Promise<number> {
  const body = await bodyOf(await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey }));
  return body.data.snapId;
}

function postComms(account: TestAccount, body: unknown): Promise<Response> {
  return server.post('/api/v1/snap/comms', body, { 'x-api-key': account.apiKey });
}

async function expectFailure(response: Response, status: number, message: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(await bodyOf(response)).toEqual({ success: false, message, error: message, statusCode: status, timestamp: expect.any(String) });
}

const HEDGING_DRAFT = 'Hi, I think maybe we could possibly look at the audit sometime? Just let me know, no rush at all.';

describe('createCommsAnalysis', () => {
  test('when the snap\'s notes held no evidence, then the snap is a 201 without a profile, and its comms a 422 that holds and charges nothing', async () => {
    const account = await createAccount(server, 5);
    const snap = await bodyOf(await server.post('/api/v1/snap', { name: 'Sam Okafor', notes: 'Met once.' }, { 'x-api-key': account.apiKey }));
    expect(snap.data.snapResponse).toEqual({
      name: 'Sam Okafor',
      profile: null,
      primary_code: null,
      secondary_profile: null,
      secondary_code: null,
      confidence: 'Low',
      reasoning: expect.stringContaining('no profile is given'),
      summary: null,
      secondary_profile_summary: null,
    });

    const response = await postComms(account, { snapId: snap.data.snapId, draft: HEDGING_DRAFT });

    await expectFailure(response, 422, 'Snap has no profile to advise on: its notes held no behavioural evidence. Create a snap with notes on how the person works, decides or deals with others');
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 4, held: 0 });
    expect(await commsCountOf(server, account.accountId)).toBe(0);
  });

  test('when the snap is the caller\'s, then it answers 201 with advice for the snap\'s profile and charges one credit', async () => {
    const account = await createAccount(server, 5);
    const snapId = await snapOf(account);
    const response = await postComms(account, { snapId });
    const body = await bodyOf(response);

    expect(response.status).toBe(201);
    expect(body).toEqual({
      success: true,
      message: 'Communication analysis generated successfully',
      data: { commsId: expect.any(Number), snapId, commsResponse: expect.any(Object) },
      statusCode: 201,
      timestamp: expect.any(String),
      error: null,
    });
    const advice = body.data.commsResponse;
    expect(advice.profile).toBe('Precisionist');
    expect(advice.primary_code).toBe('PR');
    for (const list of [advice.do, advice.dont, advice.phrases_to_use, advice.phrases_to_avoid]) {
      expect(list.length).toBeGreaterThan(0);
    }
    expect(advice.draft_analysis).toBeNull();
    expect(await balanceOf(server, account.accountId)).toBe(3);
    expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 3, rows: 3 });
  });

  test('when a draft is given, then it is scored, its issues quote it, and a rewrite is offered', async () => {
    const account = await createAccount(server, 5);
    const snapId = await snapOf(account);
    const body = await bodyOf(await postComms(account, { snapId, channel: 'email', goal: 'Agree the audit schedule', draft: HEDGING_DRAFT }));
    const review = body.data.commsResponse.draft_analysis;

    expect(Number.isInteger(review.fit_score)).toBe(true);
    expect(review.fit_score).toBeGreaterThanOrEqual(0);
    expect(review.fit_score).toBeLessThan(70);
    expect(review.issues.length).toBeGreaterThan(0);
    for (const issue of review.issues) expect(HEDGING_DRAFT).toContain(issue.excerpt);
    expect(review.rewrite).toEqual(expect.stringMatching(/\S/));
    expect(review.rewrite).not.toBe(HEDGING_DRAFT);

    const row = await server.services.db('comms_analyses').where({ id: body.data.commsId }).first();
    expect({ snapId: Number(row.snap_id), predictor: row.predictor }).toEqual({ snapId, predictor: 'embedded' });
    // Minimised by default (docs/privacy.md): nothing reads the goal or the draft again.
    expect(row.request).toEqual({ channel: 'email' });
  });

  test('when the snap belongs to another account, then it answers exactly like a missing one and charges nothing', async () => {
    const owner = await createAccount(server, 2);
    const intruder = await createAccount(server, 2);
    const snapId = await snapOf(owner);

    await expectFailure(await postComms(intruder, { snapId }), 404, 'Snap not found');
    await expectFailure(await postComms(intruder, { snapId: 987654321 }), 404, 'Snap not found');
    expect(await balanceOf(server, intruder.accountId)).toBe(2);
    expect(await commsCountOf(server, intruder.accountId)).toBe(0);
  });

  test('when the account has no credit left, then it answers 400 insufficient credits and stores nothing', async () => {
    const account = await createAccount(server, 1);
    const snapId = await snapOf(account);
    await expectFailure(
      await postComms(account, { snapId }),
      400,
      'Insufficient API credits. Please add more credits to your account to continue.',
    );
    expect(await commsCountOf(server, account.accountId)).toBe(0);
  });

  test.each([
    ['snapId is a string', { snapId: 'abc' }, 'snapId must be an integer number'],
    ['snapId is missing', {}, 'snapId should not be empty, snapId must be an integer number'],
    ['snapId is zero', { snapId: 0 }, 'snapId must not be less than 1'],
    ['snapId is a fraction', { snapId: 1.5 }, 'snapId must be an integer number'],
    ['channel is unknown', { snapId: 1, channel: 'fax' }, 'channel must be one of the following values: email, chat, call, meeting'],
    ['goal is too long', { snapId: 1, goal: 'g'.repeat(501) }, 'goal must be shorter than or equal to 500 characters'],
    ['draft is too long', { snapId: 1, draft: 'd'.repeat(5001) }, 'draft must be shorter than or equal to 5000 characters'],
    ['a property is unknown', { snapId: 1, tone: 'warm' }, 'property tone should not exist'],
    [
      'a draft of 800 Japanese characters (within 5,000 characters, past the token budget: openapi/openapi.yaml, CommsRequest)',
      { snapId: 1, draft: 'あ'.repeat(800) },
      'goal and draft are too long for the model together: an estimated 2400 tokens, at most 1375 (a Chinese, Japanese or Korean character counts as 3)',
    ],
  ])('when %s, then it answers 400 with the validation text and charges nothing', async (_name, body, message) => {
    const account = await createAccount(server, 1);
    await expectFailure(await postComms(account, body), 400, message);
    expect(await balanceOf(server, account.accountId)).toBe(1);
  });

  test('when the API key is missing, then it answers the bare 401 with the rate-limit headers', async () => {
    const response = await server.post('/api/v1/snap/comms', { snapId: 1 });
    expect(response.status).toBe(401);
    expect(await bodyOf(response)).toEqual({ message: 'Invalid or inactive api key', error: 'Invalid or inactive api key', statusCode: 401 });
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000000');
  });
});
