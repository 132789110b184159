/**
 * GET /admin/v1/accounts/{accountId}/usage and `npm run admin -- usage`: an account's
 * usage per hour or day, read from the credit ledger, checked against the ledger after a
 * seeded random run of successes and failures through the public API (real `openai`
 * client against a local fake, real PostgreSQL and Redis).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bodyOf } from '../support/json';
import { reply, startFakeOpenAi, status, type FakeOpenAi, UPSTREAM_ANALYSIS, UPSTREAM_PREDICTION, FAKE_UPSTREAM_SPEED } from '../support/fake-openai-server';
import { createAccount, PERSON, type TestAccount } from '../support/factories';
import { seededRandom } from '../support/seeded-random';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';

let fake: FakeOpenAi;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  server = await startTestServer({ OPENAI_API_KEY: 'sk-usage-test-0123456789', OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_RETRIES: '0', OPENAI_TIMEOUT_SECONDS: '10', ...FAKE_UPSTREAM_SPEED });
});

afterAll(async () => {
  await server.close();
  await fake.close();
});

beforeEach(() => fake.reset());

function usage(accountId: number, query: Record<string, string>): Promise<Response> {
  return fetch(`${server.adminUrl}/admin/v1/accounts/${accountId}/usage?${new URLSearchParams(query).toString()}`, {
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
}

const HOUR = 3_600_000;
/** A range around now, by the hour: every ledger entry of the test falls in it. */
function aroundNow(): { from: string; to: string } {
  return { from: new Date(Date.now() - 2 * HOUR).toISOString(), to: new Date(Date.now() + 2 * HOUR).toISOString() };
}

async function ledgerCharges(accountId: number): Promise<{ snap: number; comms: number; credits: number; granted: number }> {
  const db = server.services.db;
  const row = await db('credit_ledger')
    .where({ account_id: accountId })
    .first(
      db.raw("count(*) FILTER (WHERE delta < 0 AND reason = 'snap') AS snap"),
      db.raw("count(*) FILTER (WHERE delta < 0 AND reason = 'comms') AS comms"),
      db.raw('coalesce(sum(-delta) FILTER (WHERE delta < 0), 0) AS credits'),
      db.raw('coalesce(sum(delta) FILTER (WHERE delta > 0), 0) AS granted'),
    );
  return { snap: Number(row.snap), comms: Number(row.comms), credits: Number(row.credits), granted: Number(row.granted) };
}

interface Bucket {
  start: string;
  calls: { createSnap: number; createCommsAnalysis: number };
  creditsCharged: number;
  creditsGranted: number;
}

describe('account usage', () => {
  test('when a seeded random run of successes and failures has run, then the usage by the hour and by the day sums to the ledger and to the 201s', async () => {
    const random = seededRandom('account usage');
    const account: TestAccount = await createAccount(server, 40);
    const snapIds: number[] = [];
    const created = { snap: 0, comms: 0 };
    const steps = random.int(8, 20);
    for (let step = 0; step < steps; step += 1) {
      const fails = random.next() < 0.4;
      const comms = snapIds.length > 0 && random.next() < 0.5;
      fake.script(fails ? status(500, undefined, { headers: { 'x-should-retry': 'false' } }) : reply(comms ? UPSTREAM_ANALYSIS : UPSTREAM_PREDICTION));
      const response = comms
        ? await server.post('/api/v1/snap/comms', { snapId: snapIds[random.int(0, snapIds.length)] }, { 'x-api-key': account.apiKey })
        : await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
      const label = `SEED=${random.seed}, step ${step}: ${comms ? 'comms' : 'snap'} ${fails ? 'failing' : 'succeeding'}`;
      expect({ label, status: response.status }).toEqual({ label, status: fails ? 500 : 201 });
      if (response.status !== 201) continue;
      if (comms) created.comms += 1;
      else {
        created.snap += 1;
        snapIds.push((await bodyOf(response)).data.snapId);
      }
    }

    const ledger = await ledgerCharges(account.accountId);
    expect({ seed: random.seed, ...ledger }).toEqual({ seed: random.seed, snap: created.snap, comms: created.comms, credits: created.snap + created.comms, granted: 40 });
    for (const granularity of ['hour', 'day']) {
      const response = await usage(account.accountId, { ...aroundNow(), granularity });
      const body = await bodyOf(response);
      expect(response.status).toBe(200);
      expect(body).toMatchObject({ success: true, message: 'Usage found', statusCode: 200, error: null, data: { accountId: account.accountId, granularity, nextFrom: null } });
      const buckets: Bucket[] = body.data.buckets;
      const sum = (of: (bucket: Bucket) => number) => buckets.reduce((total, bucket) => total + of(bucket), 0);
      expect({ seed: random.seed, granularity, snap: sum((b) => b.calls.createSnap), comms: sum((b) => b.calls.createCommsAnalysis), credits: sum((b) => b.creditsCharged), granted: sum((b) => b.creditsGranted) }).toEqual({
        seed: random.seed,
        granularity,
        ...ledger,
      });
      for (const bucket of buckets) expect(Date.parse(bucket.start) % (granularity === 'hour' ? HOUR : 24 * HOUR)).toBe(0);
    }
  });

  test('when the buckets outnumber the limit, then a page ends with nextFrom and the next page starts there', async () => {
    const account = await createAccount(server, 1);
    const db = server.services.db;
    // Ledger entries three hours apart (written directly: the API charges only now).
    const base = Date.parse('2026-01-10T00:00:00Z');
    await db('credit_ledger').insert([0, 3, 6].map((h) => ({ account_id: account.accountId, delta: 2, reason: 'grant', created_at: new Date(base + h * HOUR + 60_000) })));
    const range = { from: new Date(base).toISOString(), to: new Date(base + 24 * HOUR).toISOString(), granularity: 'hour', limit: '2' };
    const first = (await bodyOf(await usage(account.accountId, range))).data;
    expect(first.buckets.map((b: Bucket) => b.start)).toEqual(['2026-01-10T00:00:00.000Z', '2026-01-10T03:00:00.000Z']);
    expect(first.nextFrom).toBe('2026-01-10T04:00:00.000Z');
    const second = (await bodyOf(await usage(account.accountId, { ...range, from: first.nextFrom }))).data;
    expect(second.buckets).toEqual([{ start: '2026-01-10T06:00:00.000Z', calls: { createSnap: 0, createCommsAnalysis: 0 }, creditsCharged: 0, creditsGranted: 2 }]);
    expect(second.nextFrom).toBeNull();
  });

  test('when the account is unknown, then 404 "Account not found"', async () => {
    const response = await usage(987_654_321, aroundNow());
    expect({ status: response.status, message: (await bodyOf(response)).message }).toEqual({ status: 404, message: 'Account not found' });
  });

  test('when the range is empty, too wide or not a date-time, then 400 and never a 500', async () => {
    const account = await createAccount(server, 1);
    const now = Date.now();
    const cases: { query: Record<string, string>; message: string }[] = [
      { query: { from: new Date(now).toISOString(), to: new Date(now).toISOString() }, message: 'to must be after from' },
      { query: { from: new Date(now - 32 * 24 * HOUR).toISOString(), to: new Date(now).toISOString(), granularity: 'hour' }, message: 'A range by the hour covers at most 31 days' },
      { query: { from: new Date(now - 367 * 24 * HOUR).toISOString(), to: new Date(now).toISOString() }, message: 'A range by the day covers at most 366 days' },
    ];
    for (const { query, message } of cases) {
      const response = await usage(account.accountId, query);
      expect({ status: response.status, message: (await bodyOf(response)).message }).toEqual({ status: 400, message });
    }
    const malformed: Record<string, string>[] = [{ from: 'yesterday', to: new Date(now).toISOString() }, { ...aroundNow(), granularity: 'week' }, { ...aroundNow(), limit: '0' }, { to: new Date(now).toISOString() }];
    for (const query of malformed) {
      expect((await usage(account.accountId, query)).status).toBe(400);
    }
  });

  test('when `npm run admin -- usage` runs, then it prints the same page', async () => {
    const account = await createAccount(server, 5);
    const { from, to } = aroundNow();
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [join(__dirname, '../../dist/src/cli/admin.js'), 'usage', String(account.accountId), from, to, 'hour'], {
      env: { ...process.env, ADMIN_TOKEN: TEST_ADMIN_TOKEN, ADMIN_URL: server.adminUrl },
    });
    const data = JSON.parse(stdout).data;
    expect(data).toMatchObject({ accountId: account.accountId, granularity: 'hour', nextFrom: null });
    expect(data.buckets.map((b: Bucket) => b.creditsGranted)).toEqual([5]);
  });
});
