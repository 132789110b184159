/**
 * GET /admin/v1/accounts/{accountId}/usage and `npm run admin -- usage`: an account's
 * usage per hour or day, from the credit ledger and the usage tallies, checked against the
 * ledger and the stored rows after a seeded random run of successes and failures of every
 * kind the fake can cause, through the public API (real `openai` client against a local
 * fake, real PostgreSQL and Redis); and once on PGlite, through the built service.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bodyOf } from '../support/json';
import { garbage, hang, refuse, reply, startFakeOpenAi, status, type Behaviour, type FakeOpenAi, UPSTREAM_ANALYSIS, UPSTREAM_PREDICTION, UPSTREAM_USAGE, FAKE_UPSTREAM_SPEED } from '../support/fake-openai-server';
import { createAccount, PERSON, type TestAccount } from '../support/factories';
import { seededRandom, shuffled } from '../support/seeded-random';
import { spawnServer } from '../support/spawned-server';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';

jest.setTimeout(180_000);

const UPSTREAM_ENV = { OPENAI_API_KEY: 'sk-usage-test-0123456789', OPENAI_MAX_RETRIES: '0', OPENAI_TIMEOUT_SECONDS: '5', FAILURE_BUDGET_CALLS: '0', ...FAKE_UPSTREAM_SPEED };

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

beforeEach(() => fake.reset());

function usage(accountId: number, query: Record<string, string>, adminUrl = server.adminUrl): Promise<Response> {
  return fetch(`${adminUrl}/admin/v1/accounts/${accountId}/usage?${new URLSearchParams(query).toString()}`, {
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

/** The tokens as the stored rows say: the results' own (migration 006) and the failed-call usage (migrations 008, 012, 014). */
async function storedTokens(accountId: number): Promise<{ calls: number; reportedPrompt: number; reportedCompletion: number; estimatedPrompt: number; estimatedCompletion: number }> {
  const db = server.services.db;
  const stored = { calls: 0, prompt: 0, completion: 0, estimatedPrompt: 0, estimatedCompletion: 0 };
  for (const table of ['snaps', 'comms_analyses']) {
    const row = await db(table)
      .where({ account_id: accountId })
      .whereNotNull('upstream')
      .first(
        db.raw('count(*) AS calls'),
        db.raw('coalesce(sum(prompt_tokens), 0) AS prompt'),
        db.raw('coalesce(sum(completion_tokens), 0) AS completion'),
        // An answer without a usage report stores the service's estimate (migration 015).
        db.raw('coalesce(sum(prompt_tokens) FILTER (WHERE tokens_estimated), 0) AS estimated_prompt'),
        db.raw('coalesce(sum(completion_tokens) FILTER (WHERE tokens_estimated), 0) AS estimated_completion'),
      );
    stored.calls += Number(row.calls);
    stored.prompt += Number(row.prompt);
    stored.completion += Number(row.completion);
    stored.estimatedPrompt += Number(row.estimated_prompt);
    stored.estimatedCompletion += Number(row.estimated_completion);
  }
  const failed = (await db('failed_call_usage').where({ account_id: accountId }).first()) ?? { calls: 0, prompt_tokens: 0, completion_tokens: 0, estimated_prompt_tokens: 0, estimated_completion_tokens: 0 };
  const estimatedPrompt = stored.estimatedPrompt + Number(failed.estimated_prompt_tokens);
  const estimatedCompletion = stored.estimatedCompletion + Number(failed.estimated_completion_tokens);
  return {
    calls: stored.calls + Number(failed.calls),
    reportedPrompt: stored.prompt + Number(failed.prompt_tokens) - estimatedPrompt,
    reportedCompletion: stored.completion + Number(failed.completion_tokens) - estimatedCompletion,
    estimatedPrompt,
    estimatedCompletion,
  };
}

interface ModelTokens {
  model: string;
  calls: number;
  reported: { prompt: number; completion: number };
  estimated: { prompt: number; completion: number };
  unreportedCalls: number;
}

interface Bucket {
  start: string;
  calls: { createSnap: number; createCommsAnalysis: number };
  creditsCharged: number;
  creditsGranted: number;
  successes: number;
  failures: Record<string, number>;
  tokens: ModelTokens[];
}

/** What the fake does on one step (a snap's or an analysis's), and the kind the usage view must count the failure as (none: a 201). */
const STEPS: { name: string; behaviour: (comms: boolean) => Behaviour; kind?: string }[] = [
  { name: 'success', behaviour: (comms) => reply(comms ? UPSTREAM_ANALYSIS : UPSTREAM_PREDICTION) },
  { name: 'success without a usage report', behaviour: (comms) => reply(comms ? UPSTREAM_ANALYSIS : UPSTREAM_PREDICTION, { usage: null }) },
  { name: 'HTTP 500', behaviour: () => status(500, undefined, { headers: { 'x-should-retry': 'false' } }), kind: 'upstreamOutage' },
  { name: 'HTTP 400', behaviour: () => status(400), kind: 'upstreamRefused' },
  { name: "a model's refusal", behaviour: () => refuse('I cannot help with that.'), kind: 'unusableAnswer' },
  { name: 'a body that is not a stream of events', behaviour: () => garbage(), kind: 'upstreamOutage' },
  { name: 'no answer within the time bound', behaviour: () => hang(), kind: 'upstreamTimeout' },
];
const NO_FAILURES = { total: 0, upstreamOutage: 0, upstreamTimeout: 0, upstreamRefused: 0, unusableAnswer: 0, clientLeft: 0, notStored: 0 };

describe('account usage', () => {
  test('when a seeded random run of successes and failures of every kind has run, then the usage by the hour and by the day sums to the ledger, the stored rows and the answers', async () => {
    const random = seededRandom('account usage');
    const account: TestAccount = await createAccount(server, 60);
    const snapIds: number[] = [];
    const created = { snap: 0, comms: 0 };
    const failures: Record<string, number> = { ...NO_FAILURES };
    let timeouts = 0;
    const drawnNames = new Set<string>();
    // Every kind of step once, in a seeded order, then random ones: 10 to 23 steps in all.
    const everyKind = shuffled(STEPS, random);
    const steps = random.int(10, 24);
    for (let step = 0; step < steps; step += 1) {
      let drawn = everyKind[step] ?? (random.next() < 0.45 ? STEPS[0]! : STEPS[random.int(1, STEPS.length)]!);
      // At most two calls that wait out the time bound (the one of every kind and one more): the rest of the mix is quick.
      if (drawn.kind === 'upstreamTimeout' && (timeouts += 1) > 2) drawn = STEPS[2]!;
      const comms = snapIds.length > 0 && random.next() < 0.5;
      fake.script(drawn.behaviour(comms));
      drawnNames.add(drawn.name);
      const response = comms
        ? await server.post('/api/v1/snap/comms', { snapId: snapIds[random.int(0, snapIds.length)] }, { 'x-api-key': account.apiKey })
        : await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
      const label = `SEED=${random.seed}, step ${step}: ${comms ? 'comms' : 'snap'} with ${drawn.name}`;
      expect({ label, status: response.status }).toEqual({ label, status: drawn.kind ? 500 : 201 });
      if (drawn.kind) {
        failures[drawn.kind]! += 1;
        failures.total! += 1;
        continue;
      }
      if (comms) created.comms += 1;
      else {
        created.snap += 1;
        snapIds.push((await bodyOf(response)).data.snapId);
      }
    }

    expect({ seed: random.seed, drawn: [...drawnNames].sort() }).toEqual({ seed: random.seed, drawn: STEPS.map((s) => s.name).sort() });
    const ledger = await ledgerCharges(account.accountId);
    expect({ seed: random.seed, ...ledger }).toEqual({ seed: random.seed, snap: created.snap, comms: created.comms, credits: created.snap + created.comms, granted: 60 });
    const stored = await storedTokens(account.accountId);
    for (const granularity of ['hour', 'day']) {
      const response = await usage(account.accountId, { ...aroundNow(), granularity });
      const body = await bodyOf(response);
      expect(response.status).toBe(200);
      expect(body).toMatchObject({ success: true, message: 'Usage found', statusCode: 200, error: null, data: { accountId: account.accountId, granularity, nextFrom: null } });
      const buckets: Bucket[] = body.data.buckets;
      const sum = (of: (bucket: Bucket) => number) => buckets.reduce((total, bucket) => total + of(bucket), 0);
      const tokens = (of: (model: ModelTokens) => number) => sum((bucket) => bucket.tokens.reduce((total, model) => total + of(model), 0));
      const kinds = Object.fromEntries(Object.keys(NO_FAILURES).map((kind) => [kind, sum((bucket) => bucket.failures[kind] ?? 0)]));
      expect({
        seed: random.seed,
        granularity,
        snap: sum((b) => b.calls.createSnap),
        comms: sum((b) => b.calls.createCommsAnalysis),
        credits: sum((b) => b.creditsCharged),
        granted: sum((b) => b.creditsGranted),
        successes: sum((b) => b.successes),
        failures: kinds,
        tokens: {
          calls: tokens((m) => m.calls),
          reportedPrompt: tokens((m) => m.reported.prompt),
          reportedCompletion: tokens((m) => m.reported.completion),
          estimatedPrompt: tokens((m) => m.estimated.prompt),
          estimatedCompletion: tokens((m) => m.estimated.completion),
        },
      }).toEqual({ seed: random.seed, granularity, ...ledger, successes: ledger.snap + ledger.comms, failures, tokens: stored });
      for (const bucket of buckets) {
        expect(Date.parse(bucket.start) % (granularity === 'hour' ? HOUR : 24 * HOUR)).toBe(0);
        expect(bucket.failures.total).toBe(Object.entries(bucket.failures).reduce((total, [kind, n]) => (kind === 'total' ? total : total + n), 0));
      }
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
    expect(second.buckets).toEqual([
      { start: '2026-01-10T06:00:00.000Z', calls: { createSnap: 0, createCommsAnalysis: 0 }, creditsCharged: 0, creditsGranted: 2, successes: 0, failures: NO_FAILURES, tokens: [] },
    ]);
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
    const api = await bodyOf(await usage(account.accountId, { from, to, granularity: 'hour' }));
    expect(data).toEqual(api.data);
  });

  test('when the database is the embedded PGlite, then a success and a failure show in the usage by the hour and by the day', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pps-usage-'));
    // PGlite runs in the built service: it cannot load inside Jest's module sandbox.
    const embedded = await spawnServer({ ...UPSTREAM_ENV, OPENAI_BASE_URL: fake.baseURL, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir });
    try {
      const created = await fetch(`${embedded.adminUrl}/admin/v1/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'pglite usage', credits: 3 }),
      });
      const account = (await bodyOf(created)).data;
      fake.script(reply(UPSTREAM_PREDICTION), status(500, undefined, { headers: { 'x-should-retry': 'false' } }));
      const post = () => fetch(`${embedded.url}/api/v1/snap`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body: JSON.stringify(PERSON) });
      expect([(await post()).status, (await post()).status]).toEqual([201, 500]);
      for (const granularity of ['hour', 'day']) {
        const response = await usage(account.accountId, { ...aroundNow(), granularity }, embedded.adminUrl);
        expect(response.status).toBe(200);
        const [bucket, ...others] = (await bodyOf(response)).data.buckets as Bucket[];
        expect(others).toEqual([]);
        expect(bucket).toMatchObject({ calls: { createSnap: 1, createCommsAnalysis: 0 }, creditsCharged: 1, creditsGranted: 3, successes: 1, failures: { ...NO_FAILURES, total: 1, upstreamOutage: 1 } });
        expect(bucket!.tokens).toHaveLength(1);
        expect(bucket!.tokens[0]).toMatchObject({ calls: 2, reported: { prompt: UPSTREAM_USAGE.prompt_tokens, completion: UPSTREAM_USAGE.completion_tokens }, unreportedCalls: 0 });
        expect(bucket!.tokens[0]!.estimated.prompt).toBeGreaterThan(0);
      }
    } finally {
      embedded.child.kill('SIGTERM');
      await embedded.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
