/**
 * The failure budget through the whole service, with the real `openai` client against
 * the fake upstream: snaps whose answers are refused (a Visionary secondary profile) cost
 * at most the budget's worth of upstream calls per account; past it, calls are refused
 * with 429 and Retry-After before any upstream call; an upstream outage (5xx, a
 * timeout) counts nothing, so the account is served once the
 * upstream is back; the count is shared by instances through Redis, and held by the
 * process alone without Redis.
 */
import { randomUUID } from 'node:crypto';
import { bodyOf } from '../support/json';
import { hang, reply, startFakeOpenAi, status, UPSTREAM_PREDICTION, type FakeOpenAi } from '../support/fake-openai-server';
import { balanceOf, createAccount, PERSON } from '../support/factories';
import { sampleValue } from '../support/prometheus';
import { withTestRedis } from '../support/redis-texts';
import { startTcpProxy } from '../support/tcp-proxy';
import { requireEnv, startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

const VISIONARY = { ...UPSTREAM_PREDICTION, secondary_profile: 'Visionary', secondary_code: 'VI' };
let fake: FakeOpenAi;
const servers: TestServer[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAi();
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await fake.close();
});

beforeEach(() => fake.reset());

async function start(env: Record<string, string | undefined> = {}): Promise<TestServer> {
  const server = await startTestServer({
    OPENAI_API_KEY: 'sk-budget-0123456789',
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_MODEL: 'gpt-budget-test',
    OPENAI_MAX_RETRIES: '0',
    ...env,
  });
  servers.push(server);
  return server;
}

async function snapStatuses(server: TestServer, apiKey: string, count: number): Promise<Response[]> {
  const responses: Response[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': apiKey });
    await response.arrayBuffer();
    responses.push(response);
  }
  return responses;
}

describe('failure budget', () => {
  test('when an account is past its budget, then a retry of a call that succeeded still gets its result, and a new call is 429', async () => {
    const server = await start({ RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:`, FAILURE_BUDGET_CALLS: '2' });
    const account = await createAccount(server, 5);
    const key = randomUUID();
    fake.script(reply(UPSTREAM_PREDICTION));
    const first = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey, 'idempotency-key': key });
    expect(first.status).toBe(201);
    fake.always(reply(VISIONARY));
    expect((await snapStatuses(server, account.apiKey, 3)).map((response) => response.status)).toEqual([500, 500, 429]);

    const retried = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey, 'idempotency-key': key });

    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect((await bodyOf(retried)).data).toEqual((await bodyOf(first)).data);
    expect((await snapStatuses(server, account.apiKey, 1))[0]?.status).toBe(429);
  });

  test('when 30 snaps are steered to a Visionary secondary, then only the default budget of 10 reaches the upstream and the rest are 429 with Retry-After', async () => {
    const server = await start({ RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:` });
    fake.always(reply(VISIONARY));
    const account = await createAccount(server, 5);
    const responses = await snapStatuses(server, account.apiKey, 30);
    expect(responses.map((r) => r.status)).toEqual([...Array<number>(10).fill(500), ...Array<number>(20).fill(429)]);
    expect(fake.requests).toHaveLength(10);
    const refused = responses[29];
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused?.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    expect(await balanceOf(server, account.accountId)).toBe(5);
    const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
    expect(sampleValue(text, 'failure_budget_refusals_total', { operation: 'createSnap' })).toBe(20);
    expect(sampleValue(text, 'failure_budget_failures_total', { operation: 'createSnap' })).toBe(10);
  });

  test('when the upstream is out (503s, then a timeout) for more calls than the budget, then no call is refused with 429 and the account is served once the upstream is back', async () => {
    const server = await start({ FAILURE_BUDGET_CALLS: '2', OPENAI_TIMEOUT_SECONDS: '1', OPENAI_MIN_TOKENS_PER_SECOND: '100000', OPENAI_FIRST_TOKEN_SECONDS: '0', RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:` });
    const account = await createAccount(server, 5);
    fake.always(status(503));
    expect((await snapStatuses(server, account.apiKey, 3)).map((r) => r.status)).toEqual([500, 500, 500]);
    fake.always(hang());
    expect((await snapStatuses(server, account.apiKey, 1)).map((r) => r.status)).toEqual([500]);
    expect(fake.requests).toHaveLength(4);
    const text = await (await fetch(`${server.adminUrl}/metrics`)).text();
    expect(sampleValue(text, 'failure_budget_failures_total', { operation: 'createSnap' })).toBe(0);
    expect(sampleValue(text, 'failure_budget_refusals_total', { operation: 'createSnap' })).toBe(0);

    // Recovered: the account is served at once, with nothing held against it.
    fake.always(reply(UPSTREAM_PREDICTION));
    expect((await snapStatuses(server, account.apiKey, 1)).map((r) => r.status)).toEqual([201]);
    expect(await balanceOf(server, account.accountId)).toBe(4);
  });

  test('when the upstream refuses the request as malformed (400), then that counts against the budget as the caller\'s failure', async () => {
    const server = await start({ FAILURE_BUDGET_CALLS: '2', RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:` });
    fake.always(status(400));
    const account = await createAccount(server, 5);
    expect((await snapStatuses(server, account.apiKey, 3)).map((r) => r.status)).toEqual([500, 500, 429]);
  });

  test('when the upstream refuses a parameter the operator sets (400 naming the temperature), then it is an outage: the customer is never refused for it', async () => {
    const server = await start({ FAILURE_BUDGET_CALLS: '2', RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:` });
    fake.always(status(400, { error: { message: 'Unsupported value', type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } }));
    const account = await createAccount(server, 5);
    expect((await snapStatuses(server, account.apiKey, 3)).map((r) => r.status)).toEqual([500, 500, 500]);
    expect(sampleValue(await (await fetch(`${server.adminUrl}/metrics`)).text(), 'failure_budget_failures_total', { operation: 'createSnap' })).toBe(0);
    expect(await balanceOf(server, account.accountId)).toBe(5);
  });

  test('when refused, then the body is the contract 429 envelope and another account is not refused', async () => {
    const server = await start({ FAILURE_BUDGET_CALLS: '2', RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:` });
    fake.always(reply(VISIONARY));
    const spent = await createAccount(server, 5);
    await snapStatuses(server, spent.apiKey, 2);
    const refused = await server.post('/api/v1/snap', PERSON, { 'x-api-key': spent.apiKey });
    expect(refused.status).toBe(429);
    expect(await bodyOf(refused)).toMatchObject({ success: false, statusCode: 429, message: 'ThrottlerException: Too Many Requests', error: 'ThrottlerException: Too Many Requests' });
    fake.always(reply(UPSTREAM_PREDICTION));
    const other = await createAccount(server, 5);
    expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': other.apiKey })).status).toBe(201);
  });

  test('when one instance counted the failures, then another instance sharing Redis refuses the account', async () => {
    const prefix = `test:${randomUUID()}:`;
    const first = await start({ FAILURE_BUDGET_CALLS: '3', RATE_LIMIT_REDIS_PREFIX: prefix });
    const second = await start({ FAILURE_BUDGET_CALLS: '3', RATE_LIMIT_REDIS_PREFIX: prefix });
    fake.always(reply(VISIONARY));
    const account = await createAccount(first, 5);
    expect((await snapStatuses(first, account.apiKey, 3)).map((r) => r.status)).toEqual([500, 500, 500]);
    expect((await second.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status).toBe(429);
    expect(fake.requests).toHaveLength(3);
  });

  test('when Redis dies mid-run, then the process counts the budget alone, its earlier failures included, and the shared count returns with Redis', async () => {
    const proxy = await startTcpProxy(requireEnv('REDIS_URL'));
    try {
      const prefix = `test:${randomUUID()}:`;
      const server = await start({ FAILURE_BUDGET_CALLS: '3', RATE_LIMIT_REDIS_PREFIX: prefix, REDIS_URL: proxy.url });
      fake.always(reply(VISIONARY));
      const account = await createAccount(server, 5);
      const shared = async () => sampleValue(await (await fetch(`${server.adminUrl}/metrics`)).text(), 'rate_limit_store_shared');
      // The start does not wait for Redis (a loaded machine can take a while to attach it).
      await until(async () => (await shared()) === 1, { intervalMs: 200, what: 'Redis used once the server started' });
      expect((await snapStatuses(server, account.apiKey, 1)).map((r) => r.status)).toEqual([500]);

      // Redis gone for this server: open connections cut, new ones never answered.
      proxy.delayNewConnections(Infinity);
      proxy.cutAll();
      const statuses = (await snapStatuses(server, account.apiKey, 4)).map((r) => r.status);
      expect(statuses).toEqual([500, 500, 429, 429]);
      expect(fake.requests).toHaveLength(3);
      expect(await shared()).toBe(0);

      // Back: the connections held silent are cut, so the client's next one goes through.
      proxy.delayNewConnections(0);
      proxy.cutAll();
      await until(async () => (await shared()) === 1, { intervalMs: 200, what: 'Redis used again after it came back' });
      // The budget is counted in Redis again: another account's failure is in its sliding log there.
      const other = await createAccount(server, 5);
      expect((await snapStatuses(server, other.apiKey, 1)).map((r) => r.status)).toEqual([500]);
      expect(await withTestRedis((redis) => redis.zCard(`${prefix}failures:${other.accountId}`))).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  test('when there is no Redis, then the process counts the budget alone', async () => {
    const server = await start({ FAILURE_BUDGET_CALLS: '3', REDIS_URL: undefined });
    fake.always(reply(VISIONARY));
    const account = await createAccount(server, 5);
    expect((await snapStatuses(server, account.apiKey, 5)).map((r) => r.status)).toEqual([500, 500, 500, 429, 429]);
    expect(fake.requests).toHaveLength(3);
  });

  test('when FAILURE_BUDGET_CALLS is 0, then failures are not bounded', async () => {
    const server = await start({ FAILURE_BUDGET_CALLS: '0', RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:` });
    fake.always(reply(VISIONARY));
    const account = await createAccount(server, 5);
    expect((await snapStatuses(server, account.apiKey, 12)).every((r) => r.status === 500)).toBe(true);
    expect(fake.requests).toHaveLength(12);
  });
});
