/**
 * Nothing personal in log lines, metric labels or Redis keys (docs/privacy.md): every
 * personal field (name, notes, jobType, ageRange, goal, draft) carries a canary string of
 * this run, sent on every route and down every failure path (validation error, 401, 429,
 * upstream 500, comms 404, Idempotency-Key 409 and 422), and on success and replay; then
 * the service's pino output (at trace level), its /metrics text, and every Redis key
 * and value are searched for the canaries. Real PostgreSQL and Redis, the real `openai`
 * client against a fake upstream.
 */
import { randomUUID } from 'node:crypto';
import { heldAnswer, reply, startFakeOpenAi, status, type FakeOpenAi, UPSTREAM_ANALYSIS, UPSTREAM_PREDICTION } from '../support/fake-openai-server';
import { clientIp, createAccount, type TestAccount } from '../support/factories';
import { redisTexts } from '../support/redis-texts';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

jest.setTimeout(180_000);

const RATE_LIMIT_MAX = 3;
/** The run's canary: every personal field below holds it, with the field's name. */
const CANARY = `cn${randomUUID().replace(/-/g, '').slice(0, 16)}`;
const PERSON = {
  name: `Ada ${CANARY}name`,
  notes: `Checks every figure twice and keeps meticulous notes. ${CANARY}notes`,
  jobType: `Auditor ${CANARY}job`,
  ageRange: `${CANARY}age`,
};
const CONTEXT = { goal: `Agree the budget ${CANARY}goal`, draft: `Hello, about the figures ${CANARY}draft: can we meet on Friday?` };

let fake: FakeOpenAi;
let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  fake.always(reply(UPSTREAM_PREDICTION));
  server = await startTestServer({
    LOG_LEVEL: 'trace',
    RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
    OPENAI_API_KEY: 'sk-canary-0123456789',
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_MAX_RETRIES: '0',
  });
  account = await createAccount(server, 50);
});

afterAll(async () => {
  await server.close();
  await fake.close();
});

/** Each request from an address of its own, so that only the rate-limit case meets the limit. */
function send(path: string, body: unknown, headers: Record<string, string> = {}, ip = clientIp()): Promise<Response> {
  return server.post(path, body, { 'x-api-key': account.apiKey, 'x-forwarded-for': ip, ...headers });
}

async function statusOf(response: Promise<Response>): Promise<number> {
  const answered = await response;
  await answered.arrayBuffer();
  return answered.status;
}

describe('personal data in logs, metrics and Redis', () => {
  test('when canaries are sent in every personal field on every route and failure path, then no log line, /metrics output or Redis key or value holds one', async () => {
    const key = () => ({ 'idempotency-key': `canary-${randomUUID()}` });
    // Success, and its replay.
    const once = key();
    const created = await send('/api/v1/snap', PERSON, once);
    expect(created.status).toBe(201);
    const snapId = ((await created.json()) as { data: { snapId: number } }).data.snapId;
    expect(await statusOf(send('/api/v1/snap', PERSON, once))).toBe(201);
    fake.always(reply(UPSTREAM_ANALYSIS));
    const commsOnce = key();
    expect(await statusOf(send('/api/v1/snap/comms', { snapId, channel: 'email', ...CONTEXT }, commsOnce))).toBe(201);
    expect(await statusOf(send('/api/v1/snap/comms', { snapId, channel: 'email', ...CONTEXT }, commsOnce))).toBe(201);

    // 422: the same key with another body.
    expect(await statusOf(send('/api/v1/snap', { ...PERSON, notes: `${PERSON.notes} changed` }, once))).toBe(422);
    expect(await statusOf(send('/api/v1/snap/comms', { snapId, ...CONTEXT, goal: `${CONTEXT.goal} changed` }, commsOnce))).toBe(422);

    // 409: the same key while its first call is still running.
    const snapAnswer = heldAnswer(reply(UPSTREAM_PREDICTION));
    fake.always(snapAnswer.behaviour);
    const running = key();
    const first = send('/api/v1/snap', PERSON, running);
    await until(() => fake.inFlight() === 1, { what: 'the first call reaching the upstream' });
    expect(await statusOf(send('/api/v1/snap', PERSON, running).finally(snapAnswer.release))).toBe(409);
    expect(await statusOf(first)).toBe(201);
    const commsAnswer = heldAnswer(reply(UPSTREAM_ANALYSIS));
    fake.always(commsAnswer.behaviour);
    const runningComms = key();
    const firstComms = send('/api/v1/snap/comms', { snapId, ...CONTEXT }, runningComms);
    await until(() => fake.inFlight() === 1, { what: 'the first call reaching the upstream' });
    expect(await statusOf(send('/api/v1/snap/comms', { snapId, ...CONTEXT }, runningComms).finally(commsAnswer.release))).toBe(409);
    expect(await statusOf(firstComms)).toBe(201);

    // The upstream fails: 500.
    fake.always(status(500));
    expect(await statusOf(send('/api/v1/snap', PERSON))).toBe(500);
    expect(await statusOf(send('/api/v1/snap/comms', { snapId, ...CONTEXT }))).toBe(500);

    // Comms on a snap that is not there: 404.
    expect(await statusOf(send('/api/v1/snap/comms', { snapId: 9_007_199_254_740_991, ...CONTEXT }))).toBe(404);

    // Validation errors: 400 (a field too long, a field of the wrong type, an unknown field).
    expect(await statusOf(send('/api/v1/snap', { ...PERSON, notes: `${PERSON.notes}${'x'.repeat(5000)}` }))).toBe(400);
    expect(await statusOf(send('/api/v1/snap', { ...PERSON, ageRange: 42, jobType: [PERSON.jobType] }))).toBe(400);
    expect(await statusOf(send('/api/v1/snap/comms', { snapId: String(snapId), ...CONTEXT, channel: `${CANARY}channel` }))).toBe(400);
    expect(await statusOf(send('/api/v1/snap/comms', { snapId, ...CONTEXT, draft: `${CONTEXT.draft}${'x'.repeat(10_000)}` }))).toBe(400);
    expect(await statusOf(send('/api/v1/snap', `{"name": "${PERSON.name}", "notes": "${PERSON.notes}"`))).toBe(400);

    // 401: no key, then a wrong one.
    expect(await statusOf(server.post('/api/v1/snap', PERSON, { 'x-forwarded-for': clientIp() }))).toBe(401);
    expect(await statusOf(server.post('/api/v1/snap/comms', { snapId, ...CONTEXT }, { 'x-api-key': `pps_live_${CANARY}`, 'x-forwarded-for': clientIp() }))).toBe(401);

    // 429: over the rate limit from one address.
    const ip = clientIp();
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMIT_MAX; i += 1) statuses.push(await statusOf(send('/api/v1/snap/comms', { snapId: 9_007_199_254_740_991, ...CONTEXT }, {}, ip)));
    expect(statuses).toContain(429);
    expect(await statusOf(send('/api/v1/snap', PERSON, {}, ip))).toBe(429);

    const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
    const logs = server.logs();
    // The log is not empty: a line per request at least (the access log), and the failures' own.
    expect(logs.split('\n').length).toBeGreaterThan(25);
    const found = {
      logLines: logs.split('\n').filter((line) => line.includes(CANARY)),
      metrics: metrics.split('\n').filter((line) => line.includes(CANARY)),
      redis: (await redisTexts()).filter((text) => text.includes(CANARY)),
    };
    expect(found).toEqual({ logLines: [], metrics: [], redis: [] });
  });
});
