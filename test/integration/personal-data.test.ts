/**
 * Expiry and erasure of personal data (docs/privacy.md), through the built service on
 * real PostgreSQL and on PGlite: the admin API's erasures and the sweeper's expiry delete
 * the snaps, their comms analyses and their idempotency replays, completely (every
 * table is searched afterwards for the markers the requests carried, and Redis too),
 * idempotently, and the ledger keeps its rows and its invariant (granted = available +
 * held + charged).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { knex, type Knex } from 'knex';
import { bodyOf, type JsonBody } from '../support/json';
import { pgliteSql } from '../support/pglite-sql';
import { redisTexts } from '../support/redis-texts';
import { spawnServer, type SpawnedServer } from '../support/spawned-server';
import { requireEnv, TEST_ADMIN_TOKEN } from '../support/test-server';
import { until } from '../support/until';

jest.setTimeout(300_000);

type Rows = Record<string, unknown>[];

interface Target {
  start(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
  server(): SpawnedServer;
  /** Runs statements (on PGlite, only while the service is stopped). */
  sql(statements: string[]): Promise<Rows[]>;
  /** Every Redis key and string value (none on PGlite: no Redis). */
  redisTexts(): Promise<string[]>;
  close(): Promise<void>;
}

function postgresTarget(): Target {
  let running: SpawnedServer | undefined;
  const db: Knex = knex({ client: 'pg', connection: requireEnv('DATABASE_URL'), pool: { min: 0, max: 1 } });
  return {
    start: async (env = {}) => {
      running = await spawnServer(env);
    },
    stop: () => stopServer(running),
    server: () => running ?? fail('not started'),
    sql: async (statements) => {
      const out: Rows[] = [];
      for (const statement of statements) out.push((await db.raw(statement)).rows as Rows);
      return out;
    },
    redisTexts,
    close: async () => {
      await stopServer(running);
      await db.destroy();
    },
  };
}

function pgliteTarget(): Target {
  let running: SpawnedServer | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'pps-privacy-'));
  return {
    start: async (env = {}) => {
      running = await spawnServer({ DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, ...env });
    },
    stop: async () => {
      await stopServer(running);
      running = undefined;
    },
    server: () => running ?? fail('not started'),
    sql: (statements) => pgliteSql(dataDir, statements),
    redisTexts: async () => [],
    close: async () => {
      await stopServer(running);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function stopServer(server: SpawnedServer | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

function fail(message: string): never {
  throw new Error(message);
}

describe.each([
  ['PostgreSQL', postgresTarget],
  ['PGlite', pgliteTarget],
])('personal data on %s', (_name, makeTarget) => {
  let target: Target;

  beforeAll(async () => {
    target = makeTarget();
    await target.start();
  });

  afterAll(async () => {
    await target.close();
  });

  const admin = async (method: string, path: string, body?: unknown): Promise<JsonBody> => {
    const response = await fetch(`${target.server().adminUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await bodyOf(response);
    if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data ?? json;
  };
  const post = (path: string, apiKey: string, body: unknown, key?: string) =>
    fetch(`${target.server().url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });
  const snap = async (apiKey: string, name: string, marker: string, key?: string): Promise<number> => {
    const response = await post('/api/v1/snap', apiKey, { name, notes: `Checks every figure twice; ${marker} notes.`, jobType: `Auditor ${marker}` }, key);
    expect(response.status).toBe(201);
    return (await bodyOf(response)).data.snapId as number;
  };
  const comms = async (apiKey: string, snapId: number, marker: string, key?: string): Promise<Response> =>
    post('/api/v1/snap/comms', apiKey, { snapId, goal: `Agree the budget ${marker}`, draft: `Hello, about the figures ${marker}: can we meet?` }, key);
  const newAccount = async (credits: number): Promise<{ accountId: number; apiKey: string }> =>
    admin('POST', '/admin/v1/accounts', { name: `privacy test ${randomUUID().slice(0, 8)}`, credits });
  const exported = async (accountId: number): Promise<JsonBody> => {
    const response = await fetch(`${target.server().adminUrl}/admin/v1/accounts/${accountId}/export`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(response.status).toBe(200);
    return JSON.parse(await response.text());
  };

  /** The rows of every table whose text holds `marker` (the service stopped on PGlite). */
  async function rowsHolding(marker: string): Promise<Record<string, number>> {
    const [tables = []] = await target.sql(["SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1"]);
    const names = tables.map((row) => String(row.name));
    expect(names).toEqual(expect.arrayContaining(['snaps', 'comms_analyses', 'idempotency_keys', 'credit_ledger', 'erasures', 'accounts']));
    const counts = await target.sql(names.map((name) => `SELECT count(*) AS n FROM "${name}" t WHERE t::text LIKE '%${marker}%'`));
    return Object.fromEntries(names.map((name, i) => [name, Number(counts[i]?.[0]?.n)]).filter(([, n]) => n !== 0));
  }

  /** Ledger rows of the account, and its invariant: the ledger sums to available + held. */
  async function ledgerOf(accountId: number): Promise<{ rows: number; sum: number; availableAndHeld: number }> {
    const [[ledger], [balance]] = (await target.sql([
      `SELECT count(*) AS rows, coalesce(sum(delta), 0) AS sum FROM credit_ledger WHERE account_id = ${accountId}`,
      `SELECT credits + (SELECT count(*) FROM credit_holds WHERE account_id = ${accountId}) AS n FROM accounts WHERE id = ${accountId}`,
    ])) as [Rows, Rows];
    return { rows: Number(ledger?.rows), sum: Number(ledger?.sum), availableAndHeld: Number(balance?.n) };
  }

  test('when a person, a snap and then an account are erased, then nothing of them is left in any table or in Redis, a repeat erases nothing, and the ledger is whole', async () => {
    const mine = `mk${randomUUID().replace(/-/g, '')}`;
    const theirs = `mk${randomUUID().replace(/-/g, '')}`;
    const a = await newAccount(20);
    const b = await newAccount(5);
    const ada = await snap(a.apiKey, `Ada Lovelace ${mine}`, mine, `ada-${mine}`);
    await snap(a.apiKey, `  ADA   lovelace ${mine.toUpperCase()} `, mine);
    const grace = await snap(a.apiKey, `Grace Hopper ${mine}`, mine, `grace-${mine}`);
    expect((await comms(a.apiKey, ada, mine, `comms-ada-${mine}`)).status).toBe(201);
    expect((await comms(a.apiKey, grace, mine)).status).toBe(201);
    const kept = await snap(b.apiKey, `Ada Lovelace ${theirs}`, theirs);
    const spent = await ledgerOf(a.accountId);

    const person = await admin('POST', `/admin/v1/accounts/${a.accountId}/people/erasure`, { name: `ada lovelace ${mine}` });
    expect(person).toMatchObject({ scope: 'person', accountId: a.accountId, snapId: null, erased: { snaps: 2, commsAnalyses: 1, replays: 2 } });
    expect(JSON.stringify(person)).not.toContain(mine);
    expect((await admin('POST', `/admin/v1/accounts/${a.accountId}/people/erasure`, { name: `Ada Lovelace ${mine}` })).erased).toEqual({ snaps: 0, commsAnalyses: 0, replays: 0 });
    const gone = await comms(a.apiKey, ada, mine);
    expect(gone.status).toBe(404);
    expect((await bodyOf(gone)).message).toBe('Snap not found');

    expect(await admin('DELETE', `/admin/v1/snaps/${grace}`)).toMatchObject({ scope: 'snap', accountId: a.accountId, snapId: grace, erased: { snaps: 1, commsAnalyses: 1, replays: 1 } });
    expect((await admin('DELETE', `/admin/v1/snaps/${grace}`)).erased).toEqual({ snaps: 0, commsAnalyses: 0, replays: 0 });

    await snap(a.apiKey, `Charles Babbage ${mine}`, mine, `babbage-${mine}`);
    expect((await admin('DELETE', `/admin/v1/accounts/${a.accountId}/data`)).erased).toEqual({ snaps: 1, commsAnalyses: 0, replays: 1 });
    expect((await admin('DELETE', `/admin/v1/accounts/${a.accountId}/data`)).erased).toEqual({ snaps: 0, commsAnalyses: 0, replays: 0 });
    const left = await exported(a.accountId);
    expect([left.snaps, left.commsAnalyses, left.replays]).toEqual([[], [], []]);
    // The repeated erasure of the snap found no snap, so no account: its record has none.
    expect(left.erasures.map((row: JsonBody) => row.scope)).toEqual(['person', 'person', 'snap', 'account', 'account']);
    expect((await exported(b.accountId)).snaps.map((row: JsonBody) => row.snapId)).toEqual([kept]);

    expect(await target.redisTexts().then((texts) => texts.filter((text) => text.includes(mine)))).toEqual([]);
    await target.stop();
    try {
      expect(await rowsHolding(mine)).toEqual({});
      expect(await rowsHolding(theirs)).toEqual({ snaps: 1 });
      const [erasures = []] = await target.sql([`SELECT scope, admin_token_id FROM erasures WHERE account_id = ${a.accountId} OR snap_id = ${grace} ORDER BY id`]);
      expect(erasures.map((row) => row.scope)).toEqual(['person', 'person', 'snap', 'snap', 'account', 'account']);
      for (const row of erasures) expect(row.admin_token_id).toMatch(/^sha256:[0-9a-f]{16}$/);
      const ledger = await ledgerOf(a.accountId);
      expect(ledger).toEqual({ rows: spent.rows + 1, sum: spent.sum - 1, availableAndHeld: spent.sum - 1 });
      expect(ledger.sum).toBe(20 - 6);
    } finally {
      await target.start();
    }
  });

  test('when snaps pass SNAP_RETENTION_DAYS, then the sweeper deletes them with their analyses and replays, comms on them is 404, a longer setting keeps them, and the ledger is whole', async () => {
    const marker = `mk${randomUUID().replace(/-/g, '')}`;
    const a = await newAccount(10);
    const older = await snap(a.apiKey, `Ada ${marker}`, marker, `older-${marker}`);
    const old = await snap(a.apiKey, `Grace ${marker}`, marker, `old-${marker}`);
    expect((await comms(a.apiKey, old, marker, `comms-${marker}`)).status).toBe(201);
    const fresh = await snap(a.apiKey, `Charles ${marker}`, marker);
    await target.stop();
    await target.sql([
      `UPDATE snaps SET created_at = now() - interval '50 days' WHERE id = ${older}`,
      `UPDATE snaps SET created_at = now() - interval '31 days' WHERE id = ${old}`,
      `UPDATE comms_analyses SET created_at = now() - interval '31 days' WHERE snap_id = ${old}`,
    ]);

    await target.start({ SNAP_RETENTION_DAYS: '40' });
    const snapIds = async () => ((await exported(a.accountId)).snaps as JsonBody[]).map((row) => row.snapId as number);
    await until(async () => !(await snapIds()).includes(older), { what: 'the 50-day-old snap deleted by the sweeper', intervalMs: 200 });
    expect(await snapIds()).toEqual([old, fresh]);
    await target.stop();

    await target.start();
    await until(async () => !(await snapIds()).includes(old), { what: 'the 31-day-old snap deleted by the sweeper', intervalMs: 200 });
    const left = await exported(a.accountId);
    expect(left.snaps.map((row: JsonBody) => row.snapId)).toEqual([fresh]);
    expect(left.commsAnalyses).toEqual([]);
    expect(left.replays).toEqual([]);
    const gone = await comms(a.apiKey, old, marker);
    expect(gone.status).toBe(404);
    expect((await bodyOf(gone)).message).toBe('Snap not found');
    await target.stop();
    try {
      expect(await rowsHolding(`Grace ${marker}`)).toEqual({});
      expect(await rowsHolding(`Ada ${marker}`)).toEqual({});
      const ledger = await ledgerOf(a.accountId);
      expect(ledger).toEqual({ rows: 1 + 4, sum: 10 - 4, availableAndHeld: 10 - 4 });
    } finally {
      await target.start();
    }
  });
});
