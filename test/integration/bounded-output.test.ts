/**
 * Model output over the spec's limits, through the whole service with the response
 * validator on: every field is held to its limit, so the charged success is a 201 that
 * validates, and so is its Idempotency-Key replay (found by review: a 20,000-character
 * reasoning used to become a 500 after the credit was taken, replayed for 24 h).
 */
import { randomUUID } from 'node:crypto';
import { bodyOf } from '../support/json';
import { reply, startFakeOpenAi, type FakeOpenAi, UPSTREAM_PREDICTION } from '../support/fake-openai-server';
import { balanceOf, createAccount, PERSON } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';

let fake: FakeOpenAi;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({
    OPENAI_API_KEY: 'sk-bounded-0123456789',
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_MAX_RETRIES: '0',
    VALIDATE_RESPONSES: 'true',
  });
});

afterAll(async () => {
  await server.close();
  await fake.close();
});

beforeEach(() => {
  fake.reset();
});

/** Words, so the cut falls on a word boundary. */
function words(chars: number): string {
  return 'lorem ipsum '.repeat(Math.ceil(chars / 12)).slice(0, chars);
}

function list(items: number, chars: number, word = 'lorem'): string[] {
  return Array.from({ length: items }, () => words(chars).replace(/lorem/gu, word));
}

function expectCut(text: unknown, maxChars: number): void {
  expect(typeof text).toBe('string');
  expect((text as string).length).toBeLessThanOrEqual(maxChars);
  expect((text as string).length).toBeGreaterThan(maxChars - 20);
  expect((text as string).endsWith('…')).toBe(true);
}

describe('over-long model output', () => {
  test('when every text of a snap is over 10,000 characters, then the 201 holds each cut to the limit, charged once, and the replay is the same 201', async () => {
    fake.script(reply({ ...UPSTREAM_PREDICTION, reasoning: words(20_000), summary: words(12_000), secondary_profile_summary: words(10_001) }));
    const account = await createAccount(server, 3);
    const headers = { 'x-api-key': account.apiKey, 'idempotency-key': randomUUID() };

    const first = await server.post('/api/v1/snap', PERSON, headers);
    const replay = await server.post('/api/v1/snap', PERSON, headers);
    const [firstBody, replayBody] = [await bodyOf(first), await bodyOf(replay)];

    expect([first.status, replay.status]).toEqual([201, 201]);
    const snap = firstBody.data.snapResponse;
    expectCut(snap.reasoning, 10_000);
    expectCut(snap.summary, 10_000);
    expectCut(snap.secondary_profile_summary, 10_000);
    expect(replayBody.data).toEqual(firstBody.data);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(server, account.accountId)).toBe(2);
  });

  test('when every list and text of a comms analysis is over its limit, then the 201 holds each to its limit, charged once, and the replay is the same 201', async () => {
    fake.script(reply(UPSTREAM_PREDICTION));
    const account = await createAccount(server, 3);
    const snap = await bodyOf(await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey }));
    fake.script(
      reply({
        profile: 'Catalyst',
        summary: words(12_000),
        do: list(60, 1_500),
        dont: list(51, 1_001, 'dolor'),
        phrases_to_use: list(70, 2_000),
        phrases_to_avoid: list(80, 1_200),
        draft_analysis: {
          fit_score: 250,
          issues: Array.from({ length: 60 }, () => ({ excerpt: words(6_000), suggestion: words(1_500) })),
          rewrite: words(20_000),
        },
      }),
    );
    const headers = { 'x-api-key': account.apiKey, 'idempotency-key': randomUUID() };
    // The excerpts, cut to their limit, are still the draft's own words (held to sense: verbatim or dropped).
    const request = { snapId: snap.data.snapId, draft: words(5_000) };

    const first = await server.post('/api/v1/snap/comms', request, headers);
    const replay = await server.post('/api/v1/snap/comms', request, headers);
    const [firstBody, replayBody] = [await bodyOf(first), await bodyOf(replay)];

    expect([first.status, replay.status]).toEqual([201, 201]);
    const comms = firstBody.data.commsResponse;
    expectCut(comms.summary, 10_000);
    for (const advice of [comms.do, comms.dont, comms.phrases_to_use, comms.phrases_to_avoid] as string[][]) {
      expect(advice).toHaveLength(50);
      for (const item of advice) expectCut(item, 1_000);
    }
    expect(comms.draft_analysis.fit_score).toBe(100);
    expect(comms.draft_analysis.issues).toHaveLength(50);
    for (const issue of comms.draft_analysis.issues as { excerpt: string; suggestion: string }[]) {
      expectCut(issue.excerpt, 5_000);
      expectCut(issue.suggestion, 1_000);
    }
    expectCut(comms.draft_analysis.rewrite, 10_000);
    expect(replayBody.data).toEqual(firstBody.data);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(server, account.accountId)).toBe(1);
  });
});
