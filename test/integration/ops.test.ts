/**
 * The operations endpoints on the admin listener: /healthz, /readyz and /metrics, with
 * no token, against real PostgreSQL and Redis (and proxies in front of them that a test
 * can close, to take a dependency away from one server only).
 */
import { randomUUID } from 'node:crypto';
import { bodyOf } from '../support/json';
import { clientIp, createAccount, PERSON } from '../support/factories';
import { reply, startFakeOpenAi, status, type FakeOpenAi } from '../support/fake-openai-server';
import { sampleValue } from '../support/prometheus';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { requireEnv, startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

async function metricsOf(target: TestServer): Promise<string> {
  const response = await fetch(`${target.adminUrl}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

describe('getHealth', () => {
  test('when /healthz is asked without a token, then it answers 200 {"status":"ok"}', async () => {
    const response = await fetch(`${server.adminUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ status: 'ok' });
  });

  test('when an admin route is asked without a token, then it is still refused', async () => {
    expect((await fetch(`${server.adminUrl}/admin/v1/accounts/1`)).status).toBe(401);
  });
});

describe('getReadiness', () => {
  test('when PostgreSQL and Redis answer, then /readyz answers 200 with both checks ok', async () => {
    const response = await fetch(`${server.adminUrl}/readyz`);
    expect(response.status).toBe(200);
    expect(await bodyOf(response)).toEqual({ status: 'ok', checks: { postgresql: 'ok', redis: 'ok' } });
  });

  describe.each([
    ['Redis', 'REDIS_URL', { status: 200, body: { status: 'degraded', checks: { postgresql: 'ok', redis: 'degraded' } } }],
    ['PostgreSQL', 'DATABASE_URL', { status: 503, body: { status: 'unavailable', checks: { postgresql: 'unavailable', redis: 'ok' } } }],
  ] as const)('when %s stops answering after startup', (_name, variable, want) => {
    let proxy: TcpProxy;
    let proxied: TestServer;

    beforeAll(async () => {
      proxy = await startTcpProxy(requireEnv(variable));
      proxied = await startTestServer({ [variable]: proxy.url });
    });

    afterAll(async () => {
      await proxied.close();
      await proxy.close();
    });

    test(`then /readyz answers ${want.status} naming it, and /healthz still answers 200`, async () => {
      const before = await fetch(`${proxied.adminUrl}/readyz`);
      expect({ status: before.status, body: await bodyOf(before) }).toEqual({ status: 200, body: { status: 'ok', checks: { postgresql: 'ok', redis: 'ok' } } });
      await proxy.close();

      // No elapsed time asserted (the machine may be busy): each check's 1 s bound is test/unit/app/readiness.test.ts's,
      // and PostgreSQL's last answer shows it answering for RECENT_ANSWER_MS (src/app/readiness.ts), so the test waits for the change.
      let seen: unknown;
      await until(
        async () => {
          const response = await fetch(`${proxied.adminUrl}/readyz`);
          seen = { status: response.status, body: await bodyOf(response) };
          return response.status === want.status;
        },
        { intervalMs: 200, what: () => `readiness ${want.status} (last seen: ${JSON.stringify(seen)})` },
      );
      expect(seen).toEqual(want);
      expect((await fetch(`${proxied.adminUrl}/healthz`)).status).toBe(200);
    });
  });
});

describe('getMetrics', () => {
  test('when a snap is created, then /metrics counts the request, its latency, the upstream call and the credit', async () => {
    const account = await createAccount(server, 3);
    const before = await metricsOf(server);
    expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status).toBe(201);

    const response = await fetch(`${server.adminUrl}/metrics`);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const after = await response.text();
    const delta = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(delta('http_requests_total', { operation: 'createSnap', status: '201' })).toBe(1);
    expect(delta('http_request_duration_seconds_count', { operation: 'createSnap' })).toBe(1);
    expect(delta('upstream_request_duration_seconds_count', { operation: 'predictSnap', outcome: 'success' })).toBe(1);
    expect(delta('credits_charged_total', { operation: 'createSnap' })).toBe(1);
  });

  test('when requests are refused before validation, then they are counted under their operationId, and unknown routes as "unknown"', async () => {
    const before = await metricsOf(server);
    expect((await server.post('/api/v1/snap/comms', { snapId: 1 })).status).toBe(401);
    expect((await server.post(`/api/v1/${randomUUID()}`, {})).status).toBe(401);

    const after = await metricsOf(server);
    const delta = (labels: Record<string, string>) =>
      sampleValue(after, 'http_requests_total', labels) - sampleValue(before, 'http_requests_total', labels);
    expect(delta({ operation: 'createCommsAnalysis', status: '401' })).toBe(1);
    expect(delta({ operation: 'unknown', status: '401' })).toBe(1);
    expect(after).not.toMatch(/operation="\/api/);
  });

  test('when the rate limit refuses a request, then rate_limited_requests_total counts it', async () => {
    const limited = await startTestServer({ RATE_LIMIT_MAX: '1', RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:` });
    try {
      const ip = clientIp();
      expect((await limited.post('/api/v1/snap', PERSON, { 'x-forwarded-for': ip })).status).toBe(401);
      expect((await limited.post('/api/v1/snap', PERSON, { 'x-forwarded-for': ip })).status).toBe(429);
      const text = await metricsOf(limited);
      expect(sampleValue(text, 'rate_limited_requests_total', { policy: 'ip' })).toBe(1);
      expect(sampleValue(text, 'http_requests_total', { operation: 'createSnap', status: '429' })).toBe(1);
    } finally {
      await limited.close();
    }
  });

  describe('when the upstream fails', () => {
    let fake: FakeOpenAi;
    let upstream: TestServer;

    beforeAll(async () => {
      fake = await startFakeOpenAi();
      upstream = await startTestServer({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_RETRIES: '0' });
    });

    afterAll(async () => {
      await upstream.close();
      await fake.close();
    });

    test('then upstream errors are counted and timed as errors, and nothing is charged', async () => {
      const account = await createAccount(upstream, 2);
      fake.script(status(500), reply({ profile: 'Catalyst', primary_code: 'CT' }));
      expect((await upstream.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status).toBe(500);
      expect((await upstream.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status).toBe(201);

      const text = await metricsOf(upstream);
      expect(sampleValue(text, 'upstream_errors_total', { operation: 'predictSnap' })).toBe(1);
      expect(sampleValue(text, 'upstream_request_duration_seconds_count', { operation: 'predictSnap', outcome: 'error' })).toBe(1);
      expect(sampleValue(text, 'upstream_request_duration_seconds_count', { operation: 'predictSnap', outcome: 'success' })).toBe(1);
      expect(sampleValue(text, 'credits_charged_total', { operation: 'createSnap' })).toBe(1);
      expect(sampleValue(text, 'http_requests_total', { operation: 'createSnap', status: '500' })).toBe(1);
    });
  });

  test('when scraped, then the default process metrics are there', async () => {
    const text = await metricsOf(server);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });
});

describe('the admin listener without ADMIN_TOKEN', () => {
  let tokenless: TestServer;

  beforeAll(async () => {
    tokenless = await startTestServer({ ADMIN_TOKEN: undefined });
  });

  afterAll(async () => {
    await tokenless.close();
  });

  test('when the admin API is off, then /healthz, /readyz and /metrics still answer 200 for probes and scrapers', async () => {
    const health = await fetch(`${tokenless.adminUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await bodyOf(health)).toEqual({ status: 'ok' });
    const readiness = await fetch(`${tokenless.adminUrl}/readyz`);
    expect(readiness.status).toBe(200);
    expect(await bodyOf(readiness)).toEqual({ status: 'ok', checks: { postgresql: 'ok', redis: 'ok' } });
    const metrics = await fetch(`${tokenless.adminUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^process_cpu_user_seconds_total /m);
  });

  test.each([
    ['with no token', {}],
    ['with a bearer token', { authorization: 'Bearer some-token-0123456789' }],
  ])('when an admin route is asked %s, then it answers 404 saying the admin API is off, and creates nothing', async (_name, headers) => {
    const response = await fetch(`${tokenless.adminUrl}/admin/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'should not exist', credits: 5 }),
    });
    expect(response.status).toBe(404);
    const message = 'The admin API is off: ADMIN_TOKEN is not set';
    expect(await bodyOf(response)).toEqual({ success: false, message, error: message, statusCode: 404, timestamp: expect.any(String) });
    const created = await tokenless.services.db('accounts').where({ name: 'should not exist' }).count({ n: '*' }).first();
    expect(Number(created?.n)).toBe(0);
  });
});
