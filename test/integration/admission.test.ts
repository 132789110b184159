/**
 * Admission control and Server-Timing through the whole service: requests held in flight
 * by an upstream that does not answer fill MAX_REQUESTS_IN_FLIGHT; the next request is
 * answered 503 with Retry-After while they are still held, before its API key is looked
 * up; a slot frees when a held client goes. With an upstream, admission is bounded by its
 * sockets, so no admitted request waits for a socket until its time bound runs out (the
 * issue's 12 s bound / 8 s upstream, scaled to 3 s / 2 s). Every wait is for an event.
 */
import { generateApiKey } from '../../src/domain/api-keys';
import { bodyOf } from '../support/json';
import { delay, FAKE_UPSTREAM_SPEED, hang, heldAnswer, reply, startFakeOpenAi, UPSTREAM_PREDICTION, type FakeOpenAi } from '../support/fake-openai-server';
import { balanceOf, createAccount, PERSON, type TestAccount } from '../support/factories';
import { sampleValue } from '../support/prometheus';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

const MAX_IN_FLIGHT = 3;
/** Well-formed (prefix, length, checksum) but unknown: admitted, it is looked up and answered 401. */
const UNKNOWN_KEY = generateApiKey().apiKey;

let fake: FakeOpenAi;
/** The service's settings for the fake upstream, without retries. */
const upstreamEnv = () => ({ OPENAI_API_KEY: 'sk-admission-0123456789', OPENAI_BASE_URL: fake.baseURL, OPENAI_MODEL: 'gpt-admission-test', OPENAI_MAX_RETRIES: '0' });
let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({
    ...upstreamEnv(),
    MAX_REQUESTS_IN_FLIGHT: String(MAX_IN_FLIGHT),
    // One account fills the process here; the per-account bound has its own test below.
    ACCOUNT_MAX_REQUESTS_IN_FLIGHT: String(MAX_IN_FLIGHT),
  });
  account = await createAccount(server, 20);
});

afterAll(async () => {
  await server.close();
  await fake.close();
});

beforeEach(() => fake.reset());

async function metrics(): Promise<string> {
  return (await fetch(`${server.adminUrl}/metrics`)).text();
}

describe('admission control', () => {
  test('when MAX_REQUESTS_IN_FLIGHT requests are held, then the next is shed with 503 and Retry-After before its key is looked up, and admitted once one leaves', async () => {
    fake.always(hang());
    const clients = Array.from({ length: MAX_IN_FLIGHT }, () => new AbortController());
    const held = clients.map((client) =>
      fetch(`${server.url}/api/v1/snap`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
        body: JSON.stringify(PERSON),
        signal: client.signal,
      }).catch((err: unknown) => err),
    );
    await until(() => fake.inFlight() === MAX_IN_FLIGHT, 30_000);

    const shed = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    expect(shed.headers.get('server-timing')).toMatch(/^total;dur=\d+\.\d$/);
    expect(await bodyOf(shed)).toMatchObject({ success: false, statusCode: 503, message: 'Service temporarily unavailable', error: 'Service temporarily unavailable' });
    // An unknown key is shed too, not answered 401: the lookup never ran.
    expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': UNKNOWN_KEY })).status).toBe(503);
    // Shed while every held request is still waiting on the upstream.
    expect(fake.inFlight()).toBe(MAX_IN_FLIGHT);
    const text = await metrics();
    expect(sampleValue(text, 'http_requests_shed_total')).toBe(2);
    expect(sampleValue(text, 'http_requests_in_flight')).toBe(MAX_IN_FLIGHT);

    clients[0]?.abort();
    await until(async () => sampleValue(await metrics(), 'http_requests_in_flight') === MAX_IN_FLIGHT - 1, 30_000);
    expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': UNKNOWN_KEY })).status).toBe(401);

    clients.forEach((client) => client.abort());
    await Promise.all(held);
    await until(async () => sampleValue(await metrics(), 'http_requests_in_flight') === 0, 30_000);
  });
});

describe('admission within the upstream\'s sockets', () => {
  test('when more snaps arrive at once than OPENAI_MAX_SOCKETS, with a 3 s bound and a 2 s upstream, then each is answered 201 or shed 503, never a 500 after it reached the upstream', async () => {
    const sockets = 2;
    const bounded = await startTestServer({
      ...upstreamEnv(),
      ...FAKE_UPSTREAM_SPEED,
      OPENAI_TIMEOUT_SECONDS: '3',
      OPENAI_MAX_SOCKETS: String(sockets),
      ACCOUNT_MAX_REQUESTS_IN_FLIGHT: String(sockets),
    });
    try {
      fake.always(delay(2000, reply(UPSTREAM_PREDICTION)));
      const funded = await createAccount(bounded, 20);
      const responses = await Promise.all(Array.from({ length: 3 * sockets }, () => bounded.post('/api/v1/snap', PERSON, { 'x-api-key': funded.apiKey })));
      const statuses = responses.map((response) => response.status);
      await Promise.all(responses.map((response) => response.arrayBuffer()));
      expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
      expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
      // Every call the upstream received was answered and charged.
      expect(statuses.filter((status) => status === 201)).toHaveLength(fake.requests.length);
    } finally {
      await bounded.close();
    }
  });
});

describe('admission per account', () => {
  test('when an account has ACCOUNT_MAX_REQUESTS_IN_FLIGHT requests held, then its next is refused 429 with Retry-After, another account is served, and the first is served again once one leaves', async () => {
    const perAccount = await startTestServer({
      ...upstreamEnv(),
      MAX_REQUESTS_IN_FLIGHT: '10',
      ACCOUNT_MAX_REQUESTS_IN_FLIGHT: '2',
    });
    try {
      const [busy, other] = [await createAccount(perAccount, 10), await createAccount(perAccount, 10)];
      const held = [heldAnswer(reply(UPSTREAM_PREDICTION)), heldAnswer(reply(UPSTREAM_PREDICTION))];
      fake.script(...held.map((answer) => answer.behaviour));
      fake.always(reply(UPSTREAM_PREDICTION));
      const snap = (apiKey: string) => perAccount.post('/api/v1/snap', PERSON, { 'x-api-key': apiKey });
      const holding = [snap(busy.apiKey), snap(busy.apiKey)];
      await until(() => fake.inFlight() === 2, 30_000);

      const refused = await snap(busy.apiKey);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await bodyOf(refused)).toMatchObject({ message: 'ThrottlerException: Too Many Requests', statusCode: 429 });
      expect(fake.requests).toHaveLength(2);
      expect((await snap(other.apiKey)).status).toBe(201);

      held.forEach((answer) => answer.release());
      expect((await Promise.all(holding)).map((response) => response.status)).toEqual([201, 201]);
      expect((await snap(busy.apiKey)).status).toBe(201);
      expect(await balanceOf(perAccount, busy.accountId)).toBe(7);
      expect(sampleValue(await (await fetch(`${perAccount.adminUrl}/metrics`)).text(), 'rate_limited_requests_total', { policy: 'in-flight' })).toBe(1);
    } finally {
      await perAccount.close();
    }
  });
});

describe('Server-Timing', () => {
  test('when a snap called the upstream, then its response names the total and the upstream time, and /metrics counts its overhead', async () => {
    fake.script(delay(50, reply(UPSTREAM_PREDICTION)));
    const before = sampleValue(await metrics(), 'http_request_overhead_seconds_count', { operation: 'createSnap' });
    const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
    expect(response.status).toBe(201);
    const match = /^total;dur=(\d+\.\d), upstream;dur=(\d+\.\d)$/.exec(response.headers.get('server-timing') ?? '');
    expect(match).not.toBeNull();
    expect(Number(match?.[1])).toBeGreaterThanOrEqual(Number(match?.[2]));
    expect(sampleValue(await metrics(), 'http_request_overhead_seconds_count', { operation: 'createSnap' })).toBe(before + 1);
  });

  test('when a request never reached the upstream, then its response has the total only', async () => {
    const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': UNKNOWN_KEY });
    expect(response.status).toBe(401);
    expect(response.headers.get('server-timing')).toMatch(/^total;dur=\d+\.\d$/);
    expect(fake.requests).toHaveLength(0);
  });
});
