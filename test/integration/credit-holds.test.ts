/**
 * Credit holds (DESIGN.md, "Credits") through the whole service, with the real `openai`
 * client against a fake upstream that counts its calls: a credit is held before every
 * upstream call, so an account never has more calls in flight than credits; the hold
 * becomes the charge when the result is stored and comes back at once on any failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { bodyOf } from '../support/json';
import { delay, hang, heldAnswer, reply, startFakeOpenAi, status, type FakeOpenAi, UPSTREAM_ANALYSIS, UPSTREAM_PREDICTION, FAKE_UPSTREAM_SPEED } from '../support/fake-openai-server';
import { createAccount, creditsOf, ledgerOf, PERSON, snapCountOf, type TestAccount } from '../support/factories';
import { sampleValue } from '../support/prometheus';
import { spawnServer } from '../support/spawned-server';
import { until } from '../support/until';
import { requireEnv, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';
import { createDatabase } from '../../src/data/database';
import { deleteExpiredIdempotencyKeys, returnExpiredHolds } from '../../src/data/sweeper';
import { estimatedTextTokens } from '../../src/domain/text-tokens';

jest.setTimeout(120_000);

const INSUFFICIENT = 'Insufficient API credits. Please add more credits to your account to continue.';
const UPSTREAM_ENV = { OPENAI_API_KEY: 'sk-holds-secret-0123456789', ...FAKE_UPSTREAM_SPEED, OPENAI_TIMEOUT_SECONDS: '5', OPENAI_MAX_RETRIES: '0' };

let fake: FakeOpenAi;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({ ...UPSTREAM_ENV, OPENAI_BASE_URL: fake.baseURL });
});

afterAll(async () => {
  await server.close();
  await fake.close();
});

beforeEach(() => {
  fake.reset();
});

function times<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

/** How many responses had each status, e.g. {201: 3, 400: 17}. */
function statusCounts(responses: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status: code } of responses) counts[code] = (counts[code] ?? 0) + 1;
  return counts;
}

async function expectInsufficient(responses: Response[]): Promise<void> {
  for (const response of responses.filter((r) => r.status === 400)) {
    expect(await bodyOf(response)).toEqual({ success: false, message: INSUFFICIENT, error: INSUFFICIENT, statusCode: 400, timestamp: expect.any(String) });
  }
}

function snapOn(target: TestServer, account: TestAccount, headers: Record<string, string> = {}): Promise<Response> {
  return target.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey, ...headers });
}

describe('credit holds: no more upstream calls than credits', () => {
  test('when 20 snaps race for 3 credits on a 1 s upstream, then exactly 3 upstream calls are made: 3×201, 17×400, nothing left held', async () => {
    fake.always(delay(1000, reply(UPSTREAM_PREDICTION)));
    const account = await createAccount(server, 3);
    const responses = await Promise.all(times(20, () => snapOn(server, account)));
    expect(fake.requests).toHaveLength(3);
    expect(statusCounts(responses)).toEqual({ 201: 3, 400: 17 });
    await expectInsufficient(responses);
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 0, held: 0 });
    expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 0, rows: 4 });
  });

  test('when 20 analyses race for 3 credits on a 1 s upstream, then exactly 3 upstream calls are made: 3×201, 17×400, nothing left held', async () => {
    const account = await createAccount(server, 4);
    fake.script(reply(UPSTREAM_PREDICTION));
    const { snapId } = (await bodyOf(await snapOn(server, account))).data;
    fake.reset();
    fake.always(delay(1000, reply(UPSTREAM_ANALYSIS)));
    const responses = await Promise.all(times(20, () => server.post('/api/v1/snap/comms', { snapId, draft: 'maybe we could talk' }, { 'x-api-key': account.apiKey })));
    expect(fake.requests).toHaveLength(3);
    expect(statusCounts(responses)).toEqual({ 201: 3, 400: 17 });
    await expectInsufficient(responses);
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 0, held: 0 });
  });

  test('when 6 requests race for 2 credits against a failing upstream, then all fail, at most 2 calls are in flight, and both credits are back at once', async () => {
    fake.always(delay(300, status(500, undefined, { headers: { 'x-should-retry': 'false' } })));
    const account = await createAccount(server, 2);
    const responses = await Promise.all(times(6, () => snapOn(server, account)));
    expect(statusCounts(responses)).toEqual({ 400: 4, 500: 2 });
    expect(fake.maxInFlight()).toBeLessThanOrEqual(2);
    expect(fake.requests).toHaveLength(2);
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 2, held: 0 });
    expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 2, rows: 1 });
  });

  test('when calls are in flight, then the admin view and credit_holds_active show the held credits', async () => {
    const answers = heldAnswer(reply(UPSTREAM_PREDICTION));
    fake.always(answers.behaviour);
    const account = await createAccount(server, 5);
    const inFlight = times(2, () => snapOn(server, account));
    try {
      await until(() => fake.inFlight() === 2);
      expect(await creditsOf(server, account.accountId)).toEqual({ credits: 3, held: 2 });
      const metrics = await (await fetch(`${server.adminUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).text();
      const [{ n }] = (await server.services.db.raw('select count(*) as n from credit_holds')).rows;
      expect(sampleValue(metrics, 'credit_holds_active')).toBe(Number(n));
      expect(Number(n)).toBeGreaterThanOrEqual(2);
    } finally {
      answers.release();
    }
    expect(statusCounts(await Promise.all(inFlight))).toEqual({ 201: 2 });
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 3, held: 0 });
  });

  test('when the client disconnects mid-call, then its upstream call is cancelled, nothing is charged, the credit is back and the request is counted as 499', async () => {
    fake.always(hang());
    const account = await createAccount(server, 1);
    const closed = async () => sampleValue(await (await fetch(`${server.adminUrl}/metrics`)).text(), 'http_requests_total', { operation: 'createSnap', status: '499' });
    const closedBefore = await closed();
    const client = new AbortController();
    const request = fetch(`${server.url}/api/v1/snap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
      body: JSON.stringify(PERSON),
      signal: client.signal,
    }).catch((error: Error) => error.name);
    await until(() => fake.inFlight() === 1);
    client.abort();
    expect(await request).toBe('AbortError');
    await until(() => fake.inFlight() === 0);
    await until(async () => (await creditsOf(server, account.accountId)).held === 0);
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 1, held: 0 });
    expect(await snapCountOf(server, account.accountId)).toBe(0);
    const view = await server.admin<{ tokens: { failed: unknown } }>('GET', `/admin/v1/accounts/${account.accountId}`);
    // Its prompt counted by the estimate of what was sent (domain/text-tokens.ts), marked as estimated; nothing of the answer arrived.
    const sent = fake.requests[0]?.chat?.messages ?? [];
    const estimated = estimatedTextTokens(sent.map((message) => message.content).join(''));
    expect(estimated).toBeGreaterThan(0);
    expect(view.tokens.failed).toEqual({ prompt: estimated, completion: 0, calls: 1, unreportedCalls: 1, estimatedPrompt: estimated, estimatedCompletion: 0 });
    // 499 "client closed request", not the 200 Express had set when the client left.
    await until(async () => (await closed()) === closedBefore + 1);
  });
});

describe('credit holds with an Idempotency-Key', () => {
  test('when a completed key is replayed, then it takes no hold and makes no upstream call', async () => {
    fake.always(reply(UPSTREAM_PREDICTION));
    const account = await createAccount(server, 1);
    const first = await snapOn(server, account, { 'idempotency-key': 'holds-replay-1' });
    expect(first.status).toBe(201);
    // No credit is left: a replay that tried to hold one would be refused with 400.
    const replay = await snapOn(server, account, { 'idempotency-key': 'holds-replay-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await bodyOf(replay)).data).toEqual((await bodyOf(first)).data);
    expect(fake.requests).toHaveLength(1);
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 0, held: 0 });
  });

  test('when a key is still in flight holding the last credit, then a replay is 409, not a refusal for credits', async () => {
    const answer = heldAnswer(reply(UPSTREAM_PREDICTION));
    fake.always(answer.behaviour);
    const account = await createAccount(server, 1);
    const first = snapOn(server, account, { 'idempotency-key': 'holds-in-flight-1' });
    await until(() => fake.inFlight() === 1);
    const second = await snapOn(server, account, { 'idempotency-key': 'holds-in-flight-1' }).finally(answer.release);
    expect(second.status).toBe(409);
    expect((await first).status).toBe(201);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('credit holds across instances and modes', () => {
  test('when two instances share one database, then 20 snaps on 3 credits make exactly 3 upstream calls', async () => {
    const other = await startTestServer({ ...UPSTREAM_ENV, OPENAI_BASE_URL: fake.baseURL });
    try {
      fake.always(delay(1000, reply(UPSTREAM_PREDICTION)));
      const account = await createAccount(server, 3);
      const responses = await Promise.all(times(20, (i) => snapOn(i % 2 === 0 ? server : other, account)));
      expect(fake.requests).toHaveLength(3);
      expect(statusCounts(responses)).toEqual({ 201: 3, 400: 17 });
      expect(await creditsOf(server, account.accountId)).toEqual({ credits: 0, held: 0 });
    } finally {
      await other.close();
    }
  });

  test('when the database is the embedded PGlite, then 10 snaps on 2 credits make exactly 2 upstream calls', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pps-holds-'));
    // PGlite runs in the built service: it cannot load inside Jest's module sandbox.
    const embedded = await spawnServer({ ...UPSTREAM_ENV, OPENAI_BASE_URL: fake.baseURL, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir });
    const admin = async (method: string, path: string, body?: unknown) =>
      (
        await bodyOf(
          await fetch(`${embedded.adminUrl}${path}`, {
            method,
            headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        )
      ).data;
    try {
      fake.always(delay(1000, reply(UPSTREAM_PREDICTION)));
      const account = await admin('POST', '/admin/v1/accounts', { name: 'pglite holds', credits: 2 });
      const responses = await Promise.all(
        times(10, () =>
          fetch(`${embedded.url}/api/v1/snap`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body: JSON.stringify(PERSON) }),
        ),
      );
      expect(fake.requests).toHaveLength(2);
      expect(statusCounts(responses)).toEqual({ 201: 2, 400: 8 });
      expect(await admin('GET', `/admin/v1/accounts/${account.accountId}`)).toMatchObject({ credits: 0, held: 0 });
    } finally {
      embedded.child.kill('SIGTERM');
      await embedded.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the sweeper', () => {
  /** Runs a batch of the sweeper until it finds nothing left, at most `rounds` times: whether it got there. */
  async function finishesWithin(rounds: number, batch: () => Promise<number>): Promise<boolean> {
    for (let round = 0; round < rounds; round += 1) {
      if ((await batch()) === 0) return true;
    }
    return false;
  }

  /** Moves `count` of the account's credits into holds whose lease ran out a minute ago. */
  async function expiredHolds(db: Knex, accountId: number, count: number): Promise<void> {
    await db.raw('update accounts set credits = credits - ? where id = ?', [count, accountId]);
    await db('credit_holds').insert(times(count, () => ({ account_id: accountId, operation: 'createSnap', expires_at: db.raw("now() - interval '1 minute'") })));
  }

  test('when two sweepers run at once, then each expired hold is returned exactly once', async () => {
    const db = server.services.db;
    const otherDb = await createDatabase({ databaseUrl: requireEnv('DATABASE_URL'), dataDir: '', poolMax: 4 });
    try {
      const account = await createAccount(server, 50);
      await expiredHolds(db, account.accountId, 40);
      expect(await creditsOf(server, account.accountId)).toEqual({ credits: 10, held: 40 });
      const sweepUntilDone = (sweeperDb: Knex) => finishesWithin(100, () => returnExpiredHolds(sweeperDb, 3));
      expect(await Promise.all([sweepUntilDone(db), sweepUntilDone(otherDb), sweepUntilDone(db), sweepUntilDone(otherDb)])).toEqual([true, true, true, true]);
      expect(await creditsOf(server, account.accountId)).toEqual({ credits: 50, held: 0 });
      expect(await ledgerOf(server, account.accountId)).toEqual({ sum: 50, rows: 1 });
    } finally {
      await otherDb.destroy();
    }
  });

  test('when a hold expires under a running instance, then its sweeper gives the credit back and counts it', async () => {
    const account = await createAccount(server, 2);
    await expiredHolds(server.services.db, account.accountId, 1);
    await until(async () => (await creditsOf(server, account.accountId)).held === 0, 30_000);
    expect(await creditsOf(server, account.accountId)).toEqual({ credits: 2, held: 0 });
    const metrics = await (await fetch(`${server.adminUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).text();
    expect(sampleValue(metrics, 'credit_holds_expired_total')).toBeGreaterThanOrEqual(1);
  });

  test('when idempotency keys are past their 24 hours, then they are deleted and live ones kept', async () => {
    const db = server.services.db;
    const account = await createAccount(server, 1);
    const row = (key: string, expires: string) => ({
      account_id: account.accountId,
      key,
      fingerprint: '0'.repeat(64),
      state: 'completed',
      result_id: 1,
      locked_at: db.raw("now() - interval '25 hours'"),
      expires_at: db.raw(expires),
    });
    await db('idempotency_keys').insert([row('expired', "now() - interval '1 hour'"), row('live', "now() + interval '1 hour'")]);
    expect(await finishesWithin(100, () => deleteExpiredIdempotencyKeys(db, 5))).toBe(true);
    const keys = await db('idempotency_keys').where({ account_id: account.accountId }).pluck('key');
    expect(keys).toEqual(['live']);
  });
});
