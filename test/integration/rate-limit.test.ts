/** The per-IP rate limit (contract §8) on real Redis, with the real limit of 120. */
import { bodyOf } from '../support/json';
import { randomUUID } from 'node:crypto';
import { clientIp, createAccount, PERSON, type TestAccount } from '../support/factories';
import { startTcpProxy } from '../support/tcp-proxy';
import { requireEnv, startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '120', RATE_LIMIT_WINDOW_SECONDS: '60' });
  account = await createAccount(server, 1000);
});

afterAll(async () => {
  await server.close();
});

function postAs(ip: string, target: TestServer = server, apiKey: string | null = account.apiKey): Promise<Response> {
  return target.post('/api/v1/snap', PERSON, { 'x-forwarded-for': ip, ...(apiKey ? { 'x-api-key': apiKey } : {}) });
}

function rateLimitHeaders(response: Response) {
  return {
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
  };
}

async function sendSequentially(count: number, send: () => Promise<Response>): Promise<Response[]> {
  const responses: Response[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await send();
    await response.arrayBuffer();
    responses.push(response);
  }
  return responses;
}

describe('rate limit', () => {
  test('when requests arrive, then every response carries the limit, the remaining count and whole seconds to reset', async () => {
    const ip = clientIp();
    const first = await postAs(ip);
    const second = await postAs(ip, server, null);
    expect(first.status).toBe(201);
    expect(second.status).toBe(401);
    for (const [response, remaining] of [[first, '119'], [second, '118']] as const) {
      const headers = rateLimitHeaders(response);
      expect(headers).toEqual({ limit: '120', remaining, reset: expect.stringMatching(/^\d+$/) });
      expect(Number(headers.reset)).toBeGreaterThanOrEqual(1);
      expect(Number(headers.reset)).toBeLessThanOrEqual(60);
    }
  });

  test('when a validation error or an unknown route is answered, then the headers are there too', async () => {
    const ip = clientIp();
    const invalid = await server.post('/api/v1/snap', { name: 1 }, { 'x-forwarded-for': ip, 'x-api-key': account.apiKey });
    const unknown = await server.post('/api/v1/unknown', {}, { 'x-forwarded-for': ip, 'x-api-key': account.apiKey });
    expect([invalid.status, unknown.status]).toEqual([400, 404]);
    expect(rateLimitHeaders(invalid).remaining).toBe('119');
    expect(rateLimitHeaders(unknown).remaining).toBe('118');
  });

  test('when the 121st request of a window arrives, then it answers 429 with Retry-After and the envelope', async () => {
    const ip = clientIp();
    const allowed = await sendSequentially(120, () => postAs(ip, server, null));
    expect(allowed.every((r) => r.status === 401)).toBe(true);
    expect(rateLimitHeaders(allowed[119] as Response).remaining).toBe('0');

    const refused = await postAs(ip);
    const body = await bodyOf(refused);
    expect(refused.status).toBe(429);
    expect(body).toEqual({
      success: false,
      message: 'ThrottlerException: Too Many Requests',
      error: 'ThrottlerException: Too Many Requests',
      statusCode: 429,
      timestamp: expect.any(String),
    });
    const headers = rateLimitHeaders(refused);
    expect(headers.limit).toBe('120');
    expect(headers.remaining).toBe('0');
    expect(refused.headers.get('retry-after')).toBe(headers.reset);
    expect(Number(headers.reset)).toBeGreaterThanOrEqual(1);
    expect(Number(headers.reset)).toBeLessThanOrEqual(60);
  });

  test('when the limit is exceeded, then even a valid key is refused and nothing is charged', async () => {
    const ip = clientIp();
    const own = await createAccount(server, 5);
    await sendSequentially(120, () => postAs(ip, server, null));
    const refused = await postAs(ip, server, own.apiKey);
    expect(refused.status).toBe(429);
    expect((await server.admin<{ credits: number }>('GET', `/admin/v1/accounts/${own.accountId}`)).credits).toBe(5);
  });

  test('when two client IPs call, then each has its own limit', async () => {
    const [a, b] = [clientIp(), clientIp()];
    await postAs(a, server, null);
    await postAs(a, server, null);
    const other = await postAs(b, server, null);
    expect(rateLimitHeaders(other).remaining).toBe('119');
  });

  test('when two IPv6 addresses of one /64 call, then they share a limit; of two /64s of one /56, each has its own', async () => {
    const prefix = clientIp().replace(/00::1$/, '');
    await postAs(`${prefix}00::1`, server, null);
    const sameHost = await postAs(`${prefix}00:0:1:2:3`, server, null);
    expect(rateLimitHeaders(sameHost).remaining).toBe('118');
    const neighbour = await postAs(`${prefix}01::1`, server, null);
    expect(rateLimitHeaders(neighbour).remaining).toBe('119');
  });

  test('when two instances share one Redis, then they share one limit', async () => {
    const second = await startTestServer({ RATE_LIMIT_MAX: '120', RATE_LIMIT_WINDOW_SECONDS: '60' });
    try {
      const ip = clientIp();
      await sendSequentially(60, () => postAs(ip, server, null));
      const onSecond = await sendSequentially(60, () => postAs(ip, second, null));
      expect(rateLimitHeaders(onSecond[59] as Response).remaining).toBe('0');
      expect((await postAs(ip, server)).status).toBe(429);
      expect((await postAs(ip, second)).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('a slow Redis', () => {
  test('when Redis answers 250 ms late, then it is still the count: of 150 requests in a window exactly 120 are allowed and 30 refused with the 429', async () => {
    const proxy = await startTcpProxy(requireEnv('REDIS_URL'));
    const prefix = `test:${randomUUID()}:`;
    const slow = await startTestServer({ RATE_LIMIT_MAX: '120', RATE_LIMIT_WINDOW_SECONDS: '60', RATE_LIMIT_REDIS_PREFIX: prefix, REDIS_URL: proxy.url });
    try {
      const ip = clientIp();
      // 60 counted while Redis is quick, then 90 at once while every answer is late:
      // a late answer counted in the process instead would let all 90 through.
      const quick = await sendSequentially(60, () => postAs(ip, slow, null));
      proxy.delayReplies(250);
      const late = await Promise.all(Array.from({ length: 90 }, () => postAs(ip, slow, null)));
      const statuses = [...quick, ...late].map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(120);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30);
      const refused = late.find((r) => r.status === 429) as Response;
      expect(await bodyOf(refused)).toEqual({
        success: false,
        message: 'ThrottlerException: Too Many Requests',
        error: 'ThrottlerException: Too Many Requests',
        statusCode: 429,
        timestamp: expect.any(String),
      });
      expect(refused.headers.get('retry-after')).toBe(rateLimitHeaders(refused).reset);
      const metrics = await (await fetch(`${slow.adminUrl}/metrics`)).text();
      expect(metrics).toMatch(/^rate_limit_store_shared 1$/m);
    } finally {
      await slow.close();
      await proxy.close();
    }
  });
});

describe('client IP and TRUST_PROXY', () => {
  test('when TRUST_PROXY is unset, then X-Forwarded-For is ignored and the socket address is the key', async () => {
    const direct = await startTestServer({ RATE_LIMIT_MAX: '3', TRUST_PROXY: undefined, RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:` });
    try {
      // Different spoofed addresses from one socket address share one counter.
      const responses = await sendSequentially(4, () => postAs(clientIp(), direct, null));
      expect(responses.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    } finally {
      await direct.close();
    }
  });

  test('when TRUST_PROXY names the proxy, then the forwarded client address is the key', async () => {
    const proxied = await startTestServer({ RATE_LIMIT_MAX: '3', TRUST_PROXY: 'loopback', RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:` });
    try {
      const responses = await sendSequentially(4, () => postAs(clientIp(), proxied, null));
      expect(responses.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    } finally {
      await proxied.close();
    }
  });
});
