/** Idempotency-Key on both POST routes (DESIGN.md), on real PostgreSQL. */
import { randomUUID } from 'node:crypto';
import { bodyOf } from '../support/json';
import { delay, garbage, heldAnswer, reply, startFakeOpenAi, status, type FakeOpenAi, UPSTREAM_PREDICTION } from '../support/fake-openai-server';
import { balanceOf, createAccount, creditsOf, PERSON, snapCountOf, type TestAccount } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';


let embedded: TestServer;
let fake: FakeOpenAi;
let upstream: TestServer;

beforeAll(async () => {
  embedded = await startTestServer();
  fake = await startFakeOpenAi();
  upstream = await startTestServer({ OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_RETRIES: '0' });
});

afterAll(async () => {
  await Promise.all([embedded.close(), upstream.close()]);
  await fake.close();
});

beforeEach(() => fake.reset());

function postSnap(server: TestServer, account: TestAccount, key: string, body: unknown = PERSON): Promise<Response> {
  return server.post('/api/v1/snap', body, { 'x-api-key': account.apiKey, 'idempotency-key': key });
}

describe('Idempotency-Key', () => {
  test('when a call is replayed with the same key and body, then the first success comes back unchanged and is charged once', async () => {
    const account = await createAccount(embedded, 5);
    const key = randomUUID();
    const first = await postSnap(embedded, account, key);
    const replay = await postSnap(embedded, account, key);
    const [firstBody, replayBody] = [await bodyOf(first), await bodyOf(replay)];

    expect([first.status, replay.status]).toEqual([201, 201]);
    expect(replayBody.data).toEqual(firstBody.data);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(embedded, account.accountId)).toBe(4);
    expect(await snapCountOf(embedded, account.accountId)).toBe(1);
  });

  test('when the same key comes with another body, then it answers 422 and charges nothing', async () => {
    const account = await createAccount(embedded, 5);
    const key = randomUUID();
    await postSnap(embedded, account, key);
    const other = await postSnap(embedded, account, key, { ...PERSON, name: 'Grace Hopper' });
    const message = 'Idempotency-Key was already used with a different request';
    expect(other.status).toBe(422);
    expect(await bodyOf(other)).toEqual({ success: false, message, error: message, statusCode: 422, timestamp: expect.any(String) });
    expect(await balanceOf(embedded, account.accountId)).toBe(4);
  });

  test('when a snap key is used on the comms route, then it answers 422', async () => {
    const account = await createAccount(embedded, 5);
    const key = randomUUID();
    const snap = await bodyOf(await postSnap(embedded, account, key));
    const comms = await embedded.post('/api/v1/snap/comms', { snapId: snap.data.snapId }, { 'x-api-key': account.apiKey, 'idempotency-key': key });
    expect(comms.status).toBe(422);
  });

  test('when two accounts use the same key, then each gets its own result', async () => {
    const [a, b] = [await createAccount(embedded, 2), await createAccount(embedded, 2)];
    const key = randomUUID();
    const [ra, rb] = [await bodyOf(await postSnap(embedded, a, key)), await bodyOf(await postSnap(embedded, b, key))];
    expect(ra.data.snapId).not.toBe(rb.data.snapId);
    expect([await balanceOf(embedded, a.accountId), await balanceOf(embedded, b.accountId)]).toEqual([1, 1]);
  });

  test('when a replay arrives while the first call runs, then it answers 409 and the first still succeeds once', async () => {
    const answer = heldAnswer(reply(UPSTREAM_PREDICTION));
    fake.script(answer.behaviour);
    const account = await createAccount(upstream, 5);
    const key = randomUUID();
    const first = postSnap(upstream, account, key);
    await until(() => fake.inFlight() === 1);
    const during = await postSnap(upstream, account, key).finally(answer.release);
    const message = 'A request with this Idempotency-Key is still being processed';
    expect(during.status).toBe(409);
    // Within how long the key is free if the first call has died: its claim was renewed less than 15 s ago.
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(during.headers.get('retry-after'))).toBeLessThanOrEqual(15);
    expect(await bodyOf(during)).toEqual({ success: false, message, error: message, statusCode: 409, timestamp: expect.any(String) });
    expect((await first).status).toBe(201);
    expect(await balanceOf(upstream, account.accountId)).toBe(4);
  });

  test('when the first call failed, then a retry with the same key runs again', async () => {
    fake.script(garbage(), reply(UPSTREAM_PREDICTION));
    const account = await createAccount(upstream, 5);
    const key = randomUUID();
    const failed = await postSnap(upstream, account, key);
    const retried = await postSnap(upstream, account, key);
    expect([failed.status, retried.status]).toEqual([500, 201]);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(upstream, account.accountId)).toBe(4);
  });

  test('when 20 replays of one key arrive at once, then there is one snap and one charge', async () => {
    fake.always(delay(300, reply(UPSTREAM_PREDICTION)));
    const account = await createAccount(upstream, 50);
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 20 }, () => postSnap(upstream, account, key)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const snapIds = new Set((await Promise.all(responses.filter((r) => r.status === 201).map(bodyOf))).map((b) => b.data.snapId));
    expect(snapIds.size).toBe(1);
    expect(await snapCountOf(upstream, account.accountId)).toBe(1);
    expect(await balanceOf(upstream, account.accountId)).toBe(49);
  });

  test('when a key is older than 24 hours, then it is free again', async () => {
    const account = await createAccount(embedded, 5);
    const key = randomUUID();
    await postSnap(embedded, account, key);
    await embedded.services.db('idempotency_keys').where({ account_id: account.accountId, key }).update({ expires_at: embedded.services.db.raw("now() - interval '1 second'") });
    const again = await postSnap(embedded, account, key);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await snapCountOf(embedded, account.accountId)).toBe(2);
  });

  test('when a call died holding its key, then the key is taken over once its claim is not renewed for 15 s', async () => {
    const account = await createAccount(embedded, 5);
    const key = randomUUID();
    await postSnap(embedded, account, key);
    // As a crash would leave it: claimed, never completed.
    const row = () => embedded.services.db('idempotency_keys').where({ account_id: account.accountId, key });
    await row().update({ state: 'pending', result_id: null, locked_at: embedded.services.db.raw('now()') });
    expect((await postSnap(embedded, account, key)).status).toBe(409);
    await row().update({ locked_at: embedded.services.db.raw("now() - interval '16 seconds'") });
    const takenOver = await postSnap(embedded, account, key);
    expect(takenOver.status).toBe(201);
    expect(takenOver.headers.get('idempotent-replayed')).toBeNull();
  });

  /**
   * Makes a running call's claim look abandoned, as if its process had stopped renewing it
   * (stalled past the liveness): no longer renewed here, and not renewed for an hour.
   */
  async function expireLease(server: TestServer, account: TestAccount, key: string): Promise<void> {
    const { db, idempotency } = server.services;
    const row = () => db('idempotency_keys').where({ account_id: account.accountId, key });
    const { owner } = await row().select('owner').first();
    idempotency.ended(account.accountId, { key, owner });
    await row().update({ locked_at: db.raw("now() - interval '1 hour'") });
  }

  test('when a call outlives its lease and its key is taken over, then only the call holding the key stores and charges', async () => {
    const lateAnswer = heldAnswer(reply(UPSTREAM_PREDICTION));
    fake.script(lateAnswer.behaviour, reply(UPSTREAM_PREDICTION));
    const account = await createAccount(upstream, 5);
    const key = randomUUID();
    const late = postSnap(upstream, account, key);
    await until(() => fake.inFlight() === 1);
    await expireLease(upstream, account, key);
    // The late call's answer comes only once the takeover has stored its result.
    const takeover = await postSnap(upstream, account, key).finally(lateAnswer.release);
    expect(takeover.status).toBe(201);
    expect((await late).status).toBe(409);
    expect(await snapCountOf(upstream, account.accountId)).toBe(1);
    expect(await creditsOf(upstream, account.accountId)).toEqual({ credits: 4, held: 0 });
    const replay = await postSnap(upstream, account, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await bodyOf(replay)).data).toEqual((await bodyOf(takeover)).data);
  });

  test('when a call outlives its lease and then fails, then it leaves the claim of the call that took the key over', async () => {
    const lateFailure = heldAnswer(status(500, undefined, { headers: { 'x-should-retry': 'false' } }));
    const takeoverAnswer = heldAnswer(reply(UPSTREAM_PREDICTION));
    fake.script(lateFailure.behaviour, takeoverAnswer.behaviour);
    const account = await createAccount(upstream, 5);
    const key = randomUUID();
    const late = postSnap(upstream, account, key);
    await until(() => fake.inFlight() === 1);
    await expireLease(upstream, account, key);
    const takeover = postSnap(upstream, account, key);
    try {
      // Both calls wait at the upstream; the late one fails first.
      await until(() => fake.inFlight() === 2);
      lateFailure.release();
      expect((await late).status).toBe(500);
      // The key is still the second call's: a third request waits its turn rather than running again.
      expect((await postSnap(upstream, account, key)).status).toBe(409);
    } finally {
      lateFailure.release();
      takeoverAnswer.release();
    }
    expect((await takeover).status).toBe(201);
    expect(await snapCountOf(upstream, account.accountId)).toBe(1);
    expect(await creditsOf(upstream, account.accountId)).toEqual({ credits: 4, held: 0 });
  });

  test.each([
    ['longer than 255 characters', 'k'.repeat(256), 'idempotency-key must be shorter than or equal to 255 characters'],
    ['holding a space', 'two words', 'idempotency-key must match ^[\\x21-\\x7E]+$ regular expression'],
  ])('when the key is %s, then it answers 400', async (_name, key, message) => {
    const account = await createAccount(embedded, 1);
    const response = await postSnap(embedded, account, key);
    expect(response.status).toBe(400);
    expect((await bodyOf(response)).message).toBe(message);
  });
});
