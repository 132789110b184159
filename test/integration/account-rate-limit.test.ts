/**
 * The per-account rate limit beside the contract's per-IP one (openapi/openapi.yaml, "Rate
 * limit"), on real Redis: counted per account from any IPs, exact across instances,
 * settable per account through the admin API, described with the per-IP limit by the
 * IETF draft headers RateLimit-Policy and RateLimit, and counted in the process while
 * Redis is away. Requests carry an invalid body: the key is checked and the limits count
 * them, then validation answers 400 and nothing is charged.
 */
import { randomUUID } from 'node:crypto';
import { bodyOf } from '../support/json';
import { balanceOf, clientIp, createAccount, type TestAccount } from '../support/factories';
import { sampleValue } from '../support/prometheus';
import { startTcpProxy } from '../support/tcp-proxy';
import { requireEnv, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';
import { until } from '../support/until';

const ENV = { RATE_LIMIT_MAX: '120', RATE_LIMIT_WINDOW_SECONDS: '60', ACCOUNT_RATE_LIMIT_MAX: '5' };
const PK = 'pk=:[A-Za-z0-9+/=]+:';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ...ENV, RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:` });
});

afterAll(async () => {
  await server.close();
});

/** One request of `account` from `ip` (a new one by default): 400 while the limits allow it. */
function sendAs(account: TestAccount | null, target: TestServer = server, ip: string = clientIp()): Promise<Response> {
  return target.post('/api/v1/snap', { name: 1 }, { 'x-forwarded-for': ip, ...(account ? { 'x-api-key': account.apiKey } : {}) });
}

async function statusesOf(count: number, send: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await send();
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

describe('per-account rate limit', () => {
  test('when a key is accepted, then RateLimit-Policy and RateLimit describe the per-IP and the per-account policy, and X-RateLimit-* the per-IP limit', async () => {
    const account = await createAccount(server, 5);
    const ip = clientIp();
    const response = await sendAs(account, server, ip);
    expect(response.status).toBe(400);
    expect(response.headers.get('x-ratelimit-limit')).toBe('120');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('119');
    expect(response.headers.get('ratelimit-policy')).toMatch(new RegExp(`^"ip"; q=120; w=60; ${PK}, "account"; q=5; w=60; ${PK}$`));
    expect(response.headers.get('ratelimit')).toMatch(/^"ip"; r=119; t=\d+, "account"; r=4; t=\d+$/);

    const keyless = await sendAs(null, server, ip);
    expect(keyless.status).toBe(401);
    expect(keyless.headers.get('x-ratelimit-remaining')).toBe('118');
    expect(keyless.headers.get('ratelimit-policy')).toMatch(new RegExp(`^"ip"; q=120; w=60; ${PK}$`));
    expect(keyless.headers.get('ratelimit')).toMatch(/^"ip"; r=118; t=\d+$/);
  });

  test('when an account sends more than its limit from many IPs, then the next request is the contract 429 with Retry-After, its X-RateLimit-* still the per-IP limit, and nothing is charged', async () => {
    const account = await createAccount(server, 5);
    expect(await statusesOf(5, () => sendAs(account))).toEqual([400, 400, 400, 400, 400]);

    const refused = await sendAs(account);
    expect(refused.status).toBe(429);
    expect(await bodyOf(refused)).toEqual({
      success: false,
      message: 'ThrottlerException: Too Many Requests',
      error: 'ThrottlerException: Too Many Requests',
      statusCode: 429,
      timestamp: expect.any(String),
    });
    expect(refused.headers.get('x-ratelimit-limit')).toBe('120');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('119');
    const accountReset = /"account"; r=0; t=(\d+)/.exec(refused.headers.get('ratelimit') ?? '')?.[1];
    expect(refused.headers.get('retry-after')).toBe(accountReset);
    expect(Number(accountReset)).toBeGreaterThanOrEqual(1);
    expect(Number(accountReset)).toBeLessThanOrEqual(60);
    expect(await balanceOf(server, account.accountId)).toBe(5);

    const other = await createAccount(server, 5);
    expect((await sendAs(other)).status).toBe(400);
    const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
    expect(sampleValue(metrics, 'rate_limited_requests_total', { policy: 'account' })).toBeGreaterThanOrEqual(1);
  });

  test('when two instances share one Redis, then the limit is exact across them: of 20 requests at once, 5 pass', async () => {
    const prefix = `test:${randomUUID()}:`;
    const [first, second] = await Promise.all([startTestServer({ ...ENV, RATE_LIMIT_REDIS_PREFIX: prefix }), startTestServer({ ...ENV, RATE_LIMIT_REDIS_PREFIX: prefix })]);
    try {
      const account = await createAccount(first, 5);
      const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => sendAs(account, i % 2 === 0 ? first : second)));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 400)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  test('when the admin API sets an account its own limit, then it applies at once, and null returns it to the default', async () => {
    const account = await createAccount(server, 5);
    const path = `/admin/v1/accounts/${account.accountId}/rate-limit`;
    expect(await server.admin('GET', path)).toEqual({ accountId: account.accountId, limit: 5, windowSeconds: 60, custom: false });
    expect(await statusesOf(1, () => sendAs(account))).toEqual([400]);

    expect(await server.admin('PUT', path, { limit: 2 })).toEqual({ accountId: account.accountId, limit: 2, windowSeconds: 60, custom: true });
    expect(await server.admin('GET', path)).toEqual({ accountId: account.accountId, limit: 2, windowSeconds: 60, custom: true });
    // The key was looked up (and remembered) before the change: its new limit applies all the same.
    expect(await statusesOf(2, () => sendAs(account))).toEqual([400, 429]);

    expect(await server.admin('PUT', path, { limit: null })).toEqual({ accountId: account.accountId, limit: 5, windowSeconds: 60, custom: false });
    // 3 counted so far in this window (a refused request counts too): 2 more under the default of 5.
    expect(await statusesOf(3, () => sendAs(account))).toEqual([400, 400, 429]);
  });

  test('when the admin API is asked about an account that does not exist, or sent a limit below 1, then 404 and 400', async () => {
    const unknown = await fetch(`${server.adminUrl}/admin/v1/accounts/999999999/rate-limit`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 10 }),
    });
    expect([unknown.status, (await bodyOf(unknown)).message]).toEqual([404, 'Account not found']);
    const account = await createAccount(server, 1);
    await expect(server.admin('PUT', `/admin/v1/accounts/${account.accountId}/rate-limit`, { limit: 0 })).rejects.toThrow(/: 400 /);
  });
});

describe('per-account rate limit without Redis', () => {
  test('when Redis dies mid-run, then the account limit is counted in the process and still holds, and Redis counts it again when it is back', async () => {
    const proxy = await startTcpProxy(requireEnv('REDIS_URL'));
    const target = await startTestServer({ ...ENV, RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:`, REDIS_URL: proxy.url });
    const shared = async () => sampleValue(await (await fetch(`${target.adminUrl}/metrics`)).text(), 'rate_limit_store_shared');
    try {
      const account = await createAccount(target, 5);
      expect(await statusesOf(2, () => sendAs(account, target))).toEqual([400, 400]);
      expect(await shared()).toBe(1);

      // Redis gone for this server: open connections cut, new ones never answered.
      proxy.delayNewConnections(Infinity);
      proxy.cutAll();
      // The process counts from its own zero: 5 more pass, the 6th is refused, and every one is answered.
      expect(await statusesOf(6, () => sendAs(account, target))).toEqual([400, 400, 400, 400, 400, 429]);
      expect(await shared()).toBe(0);

      // Back: the connections held silent are cut, so the client's next one goes through.
      proxy.delayNewConnections(0);
      proxy.cutAll();
      await until(async () => (await shared()) === 1, { intervalMs: 200, what: 'Redis used again after it came back' });
      const again = await sendAs(account, target);
      expect(again.status).toBe(400);
      // Redis's count of the window: the 2 before the outage, and this one.
      expect(again.headers.get('ratelimit')).toMatch(/"account"; r=2; t=\d+$/);
    } finally {
      await target.close();
      await proxy.close();
    }
  });
});
