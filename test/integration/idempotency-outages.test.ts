/**
 * No lock-out after an outage or a crash (docs/api.md, Idempotency-Key): a retry with the
 * same key runs again once the database answers again, and the key of a call whose
 * process was killed is free once its claim has not been renewed for 15 s, not after the
 * longest call; meanwhile `409` says within how long (`Retry-After`).
 */
import { randomUUID } from 'node:crypto';
import { heldAnswer, reply, startFakeOpenAi, type FakeOpenAi, UPSTREAM_PREDICTION, hang } from '../support/fake-openai-server';
import { createAccount, PERSON, type TestAccount } from '../support/factories';
import { controlService } from '../support/services-control';
import { spawnServer } from '../support/spawned-server';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

let fake: FakeOpenAi;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({ OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_RETRIES: '0' });
});

afterAll(async () => {
  await controlService('pg-start').catch(() => undefined);
  await server.close();
  await fake.close();
});

beforeEach(() => fake.reset());

function postSnap(url: string, account: TestAccount, key: string): Promise<Response> {
  return fetch(`${url}/api/v1/snap`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey, 'idempotency-key': key },
    body: JSON.stringify(PERSON),
  });
}

describe('Idempotency-Key after an outage', () => {
  test('when PostgreSQL is down at charge time, then the call is a 503 and a retry with the same key runs once PostgreSQL is back', async () => {
    const account = await createAccount(server, 5);
    const key = randomUUID();
    const { behaviour, release: answer } = heldAnswer(reply(UPSTREAM_PREDICTION));
    fake.script(behaviour);
    const first = postSnap(server.url, account, key);
    await until(() => fake.inFlight() === 1);
    await controlService('pg-stop');
    try {
      answer();
      expect((await first).status).toBe(503);
      // The release of the key failed with the database down; it waits to be tried again.
      expect(server.services.idempotency.unreleasedCount()).toBe(1);
    } finally {
      await controlService('pg-start');
    }
    await until(() => server.services.idempotency.unreleasedCount() === 0, 60_000);
    fake.script(reply(UPSTREAM_PREDICTION));
    const retry = await postSnap(server.url, account, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  }, 120_000);
});

describe('Idempotency-Key after a crash', () => {
  test('when the process holding a key is killed mid-call, then a retry gets 409 with Retry-After, and the key is taken over once its claim lapses', async () => {
    const account = await createAccount(server, 5);
    const key = randomUUID();
    fake.script(hang());
    const crashed = await spawnServer({ OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_RETRIES: '0' });
    const call = postSnap(crashed.url, account, key).catch(() => 'cut');
    await until(() => fake.inFlight() === 1, 30_000);
    crashed.child.kill('SIGKILL');
    expect(await crashed.exited).toBe('SIGKILL');
    expect(await call).toBe('cut');

    const during = await postSnap(server.url, account, key);
    expect(during.status).toBe(409);
    const retryAfter = Number(during.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(15);
    // The default lease of a claim used to be twice OPENAI_TIMEOUT_SECONDS (30) plus a minute:
    // 120 s. Now the claim lapses 15 s after its process stopped renewing it.
    fake.always(reply(UPSTREAM_PREDICTION));
    let status = 409;
    await until(async () => {
      status = (await postSnap(server.url, account, key)).status;
      return status !== 409;
    }, 90_000);
    expect(status).toBe(201);
  }, 180_000);
});
