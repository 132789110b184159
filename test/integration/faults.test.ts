/**
 * Faults caused for real: PostgreSQL and Redis stopped under a running service, PostgreSQL
 * refusing writes, SIGTERM with requests in flight, SIGKILL in the middle of requests.
 * Nothing is lost, nothing is charged twice, and service resumes without a restart.
 */
import { knex } from 'knex';
import { bodyOf } from '../support/json';
import { delay, heldAnswer, reply, startFakeOpenAi, type FakeOpenAi, UPSTREAM_PREDICTION, FAKE_UPSTREAM_SPEED } from '../support/fake-openai-server';
import { balanceOf, clientIp, createAccount, PERSON, type TestAccount } from '../support/factories';
import { sampleValue } from '../support/prometheus';
import { controlService } from '../support/services-control';
import { spawnServer } from '../support/spawned-server';
import { requireEnv, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';
import { until } from '../support/until';


describe('PostgreSQL stopped', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer();
    account = await createAccount(server, 5);
  });

  afterAll(async () => {
    await controlService('pg-start').catch(() => undefined);
    await server.close();
  });

  test('when the database is down, then it answers 503 in the envelope, charges nothing, and serves again once it is back', async () => {
    await controlService('pg-stop');
    try {
      const responses = await Promise.all([1, 2, 3].map(() => server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })));
      for (const response of responses) {
        expect(response.status).toBe(503);
        expect(await bodyOf(response)).toEqual({
          success: false,
          message: 'Service temporarily unavailable',
          error: 'Service temporarily unavailable',
          statusCode: 503,
          timestamp: expect.any(String),
        });
        expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
      }
    } finally {
      await controlService('pg-start');
    }
    // pg_ctl returns once PostgreSQL accepts connections; the pool may still hand out a
    // connection it has not yet seen closed (a 503 that charges nothing): poll for the 201.
    let again = 0;
    await until(async () => (again = (await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status) === 201, {
      what: () => `a 201 once PostgreSQL is back (last status ${again})`,
    });
    expect(await balanceOf(server, account.accountId)).toBe(4);
  }, 120_000);
});

describe('PostgreSQL up but refusing writes', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    // One pooled connection, so that the session setting below is every statement's.
    server = await startTestServer({ DATABASE_POOL_MAX: '1' });
    account = await createAccount(server, 5);
  });

  afterAll(async () => {
    await server.close();
  });

  test('when every write is refused as read-only (a standby after a failover, SQLSTATE 25006), then it answers 503, charges nothing, and serves again once writes are taken', async () => {
    const { db } = server.services;
    await db.raw('SET default_transaction_read_only = on');
    try {
      const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey });
      expect(response.status).toBe(503);
      expect(await bodyOf(response)).toMatchObject({ message: 'Service temporarily unavailable', statusCode: 503 });
    } finally {
      await db.raw('SET default_transaction_read_only = off');
    }
    expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey })).status).toBe(201);
    expect(await balanceOf(server, account.accountId)).toBe(4);
  });
});

describe('Redis stopped', () => {
  let server: TestServer;
  let account: TestAccount;
  const prefix = `faults:${Date.now()}:`;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '50', RATE_LIMIT_REDIS_PREFIX: prefix });
    account = await createAccount(server, 100);
  });

  afterAll(async () => {
    await controlService('redis-start').catch(() => undefined);
    await server.close();
  });

  async function redisKeys(): Promise<string[]> {
    const { createClient } = await import('@redis/client');
    const client = createClient({ url: process.env.REDIS_URL });
    await client.connect();
    try {
      return await client.keys(`${prefix}*`);
    } finally {
      await client.close();
    }
  }

  test('when Redis is down, then requests are served and counted by the in-process limit, and the shared limit returns with Redis', async () => {
    await controlService('redis-stop');
    try {
      const ip = clientIp();
      for (let i = 0; i < 5; i += 1) {
        const response = await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey, 'x-forwarded-for': ip });
        expect(response.status).toBe(201);
        // Counted in the process. (That a silent Redis costs a request at most the 2 s bound is
        // test/unit/data/redis/shared-redis.test.ts's, on fake timers: no elapsed time here.)
        expect(response.headers.get('x-ratelimit-remaining')).toBe(String(49 - i));
      }
    } finally {
      await controlService('redis-start');
    }
    // An IPv4 address: the Redis key of an IPv6 client is its /64, not the address.
    const ip = `203.0.113.${Date.now() % 250}`;
    // The event: this client's counter appears in Redis (the store attaches again in the background).
    await until(
      async () => {
        await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey, 'x-forwarded-for': ip });
        return (await redisKeys()).some((key) => key.includes(ip));
      },
      { intervalMs: 200, what: 'the rate limit counted in Redis again after it restarted' },
    );
  }, 120_000);

  interface Readiness {
    status: number;
    body: unknown;
    shared: number;
  }

  async function readiness(): Promise<Readiness> {
    const response = await fetch(`${server.adminUrl}/readyz`);
    const metrics = await (await fetch(`${server.adminUrl}/metrics`)).text();
    return { status: response.status, body: await bodyOf(response), shared: sampleValue(metrics, 'rate_limit_store_shared') };
  }

  /**
   * Polls until /readyz and the gauge BOTH say `want`, with `beforeEach` (a request) before
   * each look. Both are read in one poll, one after the other: the store may change state
   * between the two reads (it attaches again in the background), so a poll that waits for
   * the gauge alone can see the readiness body from before the change.
   */
  async function untilReadiness(want: Readiness, what: string, beforeEach: () => Promise<void> = async () => undefined): Promise<void> {
    let seen: Readiness | undefined;
    await until(
      async () => {
        await beforeEach();
        seen = await readiness();
        return JSON.stringify(seen) === JSON.stringify(want);
      },
      { intervalMs: 200, what: () => `${what} (last seen: ${JSON.stringify(seen)})` },
    );
  }

  test('when Redis is down, then /readyz stays 200 with Redis "degraded", the metric says the limit is per-process, and both recover with Redis', async () => {
    const ok = { status: 200, body: { status: 'ok', checks: { postgresql: 'ok', redis: 'ok' } }, shared: 1 };
    await untilReadiness(ok, 'ready with Redis before the test');
    await controlService('redis-stop');
    try {
      // The store notices on the first request that needs Redis (or at its own PING): each
      // look sends a request first, and every one is served. Polled rather than read once:
      // /readyz and /metrics are two reads, and the state may change between them.
      const served = async () => {
        expect((await server.post('/api/v1/snap', PERSON, { 'x-api-key': account.apiKey, 'x-forwarded-for': clientIp() })).status).toBe(201);
      };
      await untilReadiness({ status: 200, body: { status: 'degraded', checks: { postgresql: 'ok', redis: 'degraded' } }, shared: 0 }, 'degraded while Redis is down', served);
    } finally {
      await controlService('redis-start');
    }
    await untilReadiness(ok, 'ready with Redis again after it restarted');
  }, 180_000);
  test('when Redis dies under an idle instance, then rate_limit_store_shared drops to 0 with no request at all, and returns to 1 with Redis', async () => {
    const shared = async () => sampleValue(await (await fetch(`${server.adminUrl}/metrics`)).text(), 'rate_limit_store_shared');
    await until(async () => (await shared()) === 1, 30_000, 100);
    await controlService('redis-stop');
    try {
      // Only /metrics is asked (no API request, no /readyz): the store's own PING notices.
      await until(async () => (await shared()) === 0, 30_000, 100);
    } finally {
      await controlService('redis-start');
    }
    await until(async () => (await shared()) === 1, 30_000, 100);
  });
});

describe('signals', () => {
  let fake: FakeOpenAi;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });

  afterAll(async () => {
    await fake.close();
  });

  async function accountOn(adminUrl: string, credits: number): Promise<TestAccount> {
    const response = await fetch(`${adminUrl}/admin/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'signals', credits }),
    });
    return (await bodyOf(response)).data;
  }

  test('when SIGTERM arrives with requests in flight, then they complete, new connections are refused, and the process exits 0', async () => {
    fake.reset();
    const { behaviour, release: answer } = heldAnswer(reply(UPSTREAM_PREDICTION));
    fake.always(behaviour);
    const server = await spawnServer({ OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: fake.baseURL, ...FAKE_UPSTREAM_SPEED, OPENAI_TIMEOUT_SECONDS: '30', OPENAI_MAX_RETRIES: '0' });
    const account = await accountOn(server.adminUrl, 10);
    const inFlight = Array.from({ length: 5 }, () =>
      fetch(`${server.url}/api/v1/snap`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body: JSON.stringify(PERSON) }),
    );
    await until(() => fake.inFlight() === 5, 30_000);
    server.child.kill('SIGTERM');
    // The event, not a clock: the listener closes soon after the signal (a keyless probe
    // costs nothing if it is still answered), while the five calls are still in flight.
    // A probe that reached the kernel's accept queue just as the listener closed is reset
    // (ECONNRESET), not refused: that is the closing moment, so the probes go on until one
    // is refused outright.
    const attempt = () =>
      fetch(`${server.url}/api/v1/snap`, { method: 'POST', headers: { connection: 'close' } }).then(
        () => 'answered',
        (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
      );
    const outcomes = new Set<string>();
    await until(async () => {
      const outcome = await attempt();
      outcomes.add(outcome);
      return outcome === 'ECONNREFUSED';
    }, 30_000);
    expect(fake.inFlight()).toBe(5);
    answer();
    const statuses = (await Promise.all(inFlight)).map((r) => r.status);
    const code = await server.exited;

    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    expect([...outcomes].filter((outcome) => !['answered', 'ECONNRESET', 'ECONNREFUSED'].includes(outcome))).toEqual([]);
    expect(code).toBe(0);
  });

  test('when SIGTERM arrives during an upstream call longer than 10 s, then the call finishes, is stored and charged, and the client gets its 201', async () => {
    fake.reset();
    fake.always(delay(11_000, reply(UPSTREAM_PREDICTION)));
    // No SHUTDOWN_TIMEOUT_SECONDS: its default follows OPENAI_TIMEOUT_SECONDS (20 + 15 s); 20 s leaves the 11 s answer room on a busy machine.
    const server = await spawnServer({ OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: fake.baseURL, ...FAKE_UPSTREAM_SPEED, OPENAI_TIMEOUT_SECONDS: '20', OPENAI_MAX_RETRIES: '0' });
    const account = await accountOn(server.adminUrl, 1);
    const paid = fetch(`${server.url}/api/v1/snap`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body: JSON.stringify(PERSON) });
    await until(() => fake.inFlight() === 1, { what: 'the paid call to reach the upstream' });
    server.child.kill('SIGTERM');
    const response = await paid;
    expect(response.status).toBe(201);
    const { data } = await bodyOf(response);
    expect(data.snapResponse.profile).toBe(UPSTREAM_PREDICTION.profile);
    expect(await server.exited).toBe(0);

    // Stored and charged, as the database holds it after the process has gone: its one snap, the one credit spent, and one debit for that snap.
    const db = knex({ client: 'pg', connection: requireEnv('DATABASE_URL'), pool: { min: 0, max: 1 } });
    try {
      const snaps = await db('snaps').where({ account_id: account.accountId }).select('id');
      expect(snaps.map((row) => Number(row.id))).toEqual([data.snapId]);
      const { credits } = await db('accounts').where({ id: account.accountId }).select('credits').first();
      expect(Number(credits)).toBe(0);
      const debits = await db('credit_ledger').where({ account_id: account.accountId }).andWhere('delta', '<', 0).select('delta', 'reason', 'snap_id');
      expect(debits.map((row) => ({ delta: row.delta, reason: row.reason, snapId: Number(row.snap_id) }))).toEqual([{ delta: -1, reason: 'snap', snapId: data.snapId }]);
    } finally {
      await db.destroy();
    }
  }, 120_000);

  test('when the process is SIGKILLed mid-requests, then every charge has its snap and every snap its charge, and after the lease no credit stays held', async () => {
    fake.reset();
    fake.always(delay(150, reply(UPSTREAM_PREDICTION)));
    // OPENAI_TIMEOUT_SECONDS=2: the holds of the killed process expire 2 + 15 s after they were taken.
    const env = { OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: fake.baseURL, ...FAKE_UPSTREAM_SPEED, OPENAI_TIMEOUT_SECONDS: '2' };
    const first = await spawnServer(env);
    const accounts = await Promise.all([30, 30, 30].map((credits) => accountOn(first.adminUrl, credits)));
    const requests = accounts.flatMap((account) =>
      Array.from({ length: 20 }, () =>
        fetch(`${first.url}/api/v1/snap`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey }, body: JSON.stringify(PERSON) }).then(
          (r) => r.status,
          () => 'cut' as const,
        ),
      ),
    );
    // The event: calls are in flight upstream (so these requests are cut mid-way), not a clock.
    await until(() => fake.inFlight() > 0, { intervalMs: 1, what: 'an upstream call in flight before the SIGKILL' });
    first.child.kill('SIGKILL');
    const outcomes = await Promise.all(requests);
    expect(await first.exited).toBe('SIGKILL');
    expect(outcomes).toContain('cut');

    const second = await startTestServer();
    try {
      const db = second.services.db;
      const scalar = async (sql: string, accountId: number): Promise<number> => Number((await db.raw(sql, [accountId])).rows[0].n);
      const ledgerOf = async (accountId: number) => {
        const snaps = await scalar('select count(*) as n from snaps where account_id = ?', accountId);
        return {
          snaps,
          available: await scalar('select credits as n from accounts where id = ?', accountId),
          held: await scalar('select count(*) as n from credit_holds where account_id = ?', accountId),
          ledger: await scalar('select coalesce(sum(delta), 0) as n from credit_ledger where account_id = ?', accountId),
          charges: await scalar("select count(*) as n from credit_ledger where account_id = ? and reason = 'snap'", accountId),
          orphans: await scalar(
            "select count(*) as n from credit_ledger l left join snaps s on s.id = l.snap_id where l.account_id = ? and l.reason = 'snap' and s.id is null",
            accountId,
          ),
        };
      };
      // Right after the crash: granted = available + held + charged, and the ledger (grants less charges) agrees.
      for (const account of accounts) {
        const { snaps, available, held, ledger, charges, orphans } = await ledgerOf(account.accountId);
        expect({ balance: available + held, ledger, charges, orphans }).toEqual({ balance: 30 - snaps, ledger: 30 - snaps, charges: snaps, orphans: 0 });
        const successes = outcomes.slice(accounts.indexOf(account) * 20, accounts.indexOf(account) * 20 + 20).filter((o) => o === 201).length;
        expect(snaps).toBeGreaterThanOrEqual(successes);
      }
      // After the lease, the sweeper of the new instance has given every held credit back, once.
      let after = await Promise.all(accounts.map((account) => ledgerOf(account.accountId)));
      await until(
        async () => (after = await Promise.all(accounts.map((account) => ledgerOf(account.accountId)))).every((state) => state.held === 0),
        { timeoutMs: 120_000, intervalMs: 500, what: 'every held credit given back by the sweeper after the lease' },
      );
      for (const { snaps, available, held, ledger, charges, orphans } of after) {
        expect({ available, held, ledger, charges, orphans }).toEqual({ available: 30 - snaps, held: 0, ledger: 30 - snaps, charges: snaps, orphans: 0 });
      }
    } finally {
      await second.close();
    }
  }, 240_000);
});
