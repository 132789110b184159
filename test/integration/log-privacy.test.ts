/**
 * No request text in any log line, even when a charging statement fails for real in
 * PostgreSQL. This test's own connection sets two traps that only rows carrying its
 * markers fall into: a trigger that holds the statement (its backend is then terminated,
 * as when PostgreSQL restarts mid-charge), and a CHECK constraint that refuses the row
 * (PostgreSQL then quotes the whole failing row, request text included, in the error's
 * `detail`). The service's logs are read for the name, notes, goal and draft, which it
 * stores here (KEEP_REQUEST_TEXTS: docs/privacy.md).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { knex, type Knex } from 'knex';
import { bodyOf } from '../support/json';
import { createAccount, PERSON } from '../support/factories';
import { pgliteSql } from '../support/pglite-sql';
import { untilPoolAnswers } from '../support/pool-answers';
import { spawnServer } from '../support/spawned-server';
import { requireEnv, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../support/test-server';
import { until } from '../support/until';

// Each wait below is bounded at 60 s (a busy machine); the trap itself sleeps 30 s.
jest.setTimeout(180_000);

const HELD = `held-${randomUUID()}`;
const REFUSED = `refused-${randomUUID()}`;
const TABLES = ['snaps', 'comms_analyses'] as const;
let server: TestServer;
/** The test's own connection: it sets the traps and terminates the service's backend. */
let db: Knex;

async function removeTraps(): Promise<void> {
  for (const table of TABLES) {
    await db.raw('DROP TRIGGER IF EXISTS pps_test_hold_marked ON ??', [table]);
    await db.raw('ALTER TABLE ?? DROP CONSTRAINT IF EXISTS pps_test_refuse_marked', [table]);
  }
  await db.raw('DROP FUNCTION IF EXISTS pps_test_hold_marked_insert()');
}

beforeAll(async () => {
  // The texts kept (KEEP_REQUEST_TEXTS): the traps match the stored request, and the
  // statement then carries every text PostgreSQL could quote (by default only the name).
  server = await startTestServer({ LOG_LEVEL: 'info', KEEP_REQUEST_TEXTS: 'true' });
  db = knex({ client: 'pg', connection: requireEnv('DATABASE_URL'), pool: { min: 0, max: 1 } });
  await removeTraps();
  await db.raw(`
    CREATE FUNCTION pps_test_hold_marked_insert() RETURNS trigger AS $$
    BEGIN
      IF NEW.request::text LIKE '%' || TG_ARGV[0] || '%' THEN PERFORM pg_sleep(30); END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  for (const table of TABLES) {
    await db.raw(`CREATE TRIGGER pps_test_hold_marked BEFORE INSERT ON ?? FOR EACH ROW EXECUTE FUNCTION pps_test_hold_marked_insert('${HELD}')`, [table]);
    await db.raw(`ALTER TABLE ?? ADD CONSTRAINT pps_test_refuse_marked CHECK (request::text NOT LIKE '%${REFUSED}%') NOT VALID`, [table]);
  }
});

afterAll(async () => {
  await removeTraps();
  await db.destroy();
  await server.close();
});

/** Waits (bounded) for the charging statement to sleep in the trigger, then terminates its backend. */
async function terminateHeldStatement(): Promise<void> {
  let pid = 0;
  await until(
    async () => {
      const { rows } = await db.raw<{ rows: { pid: number }[] }>(
        // Only the trap sleeps (pg_stat_activity cuts the long charging statement's text at 1 kB, so its text is not matched).
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep' AND pid <> pg_backend_pid()",
      );
      pid = rows[0]?.pid ?? 0;
      return pid !== 0;
    },
    { intervalMs: 50, what: 'the charging statement held in the trigger' },
  );
  await db.raw('SELECT pg_terminate_backend(?)', [pid]);
}

/** POSTs, terminating the charging statement's backend meanwhile. */
async function postTerminated(path: string, body: unknown, apiKey: string): Promise<Response> {
  const [response] = await Promise.all([server.post(path, body, { 'x-api-key': apiKey }), terminateHeldStatement()]);
  await untilPoolAnswers(server.services.db);
  return response;
}

async function snapOf(apiKey: string): Promise<number> {
  const snap = await bodyOf(await server.post('/api/v1/snap', PERSON, { 'x-api-key': apiKey }));
  return snap.data.snapId as number;
}

function expectLoggedWithout(kind: string, texts: string[]): void {
  const logs = server.logs();
  expect(logs).toContain(`"kind":"${kind}"`);
  for (const text of texts) expect(logs).not.toContain(text);
}

describe('a charging statement that fails in PostgreSQL', () => {
  test('when the snap statement is terminated mid-statement, then it answers 503 and the log holds neither the name nor the notes', async () => {
    const account = await createAccount(server, 3);
    const person = { ...PERSON, name: `Ada ${HELD}`, notes: `secret notes ${randomUUID()}` };

    const response = await postTerminated('/api/v1/snap', person, account.apiKey);

    expect(response.status).toBe(503);
    expectLoggedWithout('unavailable', [HELD, person.notes]);
  });

  test('when the comms statement is terminated mid-statement, then it answers 503 and the log holds neither the goal nor the draft', async () => {
    const account = await createAccount(server, 3);
    const request = { snapId: await snapOf(account.apiKey), goal: `secret goal ${randomUUID()}`, draft: `secret draft ${HELD}` };

    const response = await postTerminated('/api/v1/snap/comms', request, account.apiKey);

    expect(response.status).toBe(503);
    expectLoggedWithout('unavailable', [HELD, request.goal]);
  });

  test('when PostgreSQL refuses the snap row and quotes it in its error, then it answers 500 and the log holds neither the name nor the notes', async () => {
    const account = await createAccount(server, 3);
    const person = { ...PERSON, name: `Ada ${REFUSED}`, notes: `secret notes ${randomUUID()}` };

    const response = await server.post('/api/v1/snap', person, { 'x-api-key': account.apiKey });

    expect(response.status).toBe(500);
    expect(server.logs()).toContain('pps_test_refuse_marked');
    expectLoggedWithout('internal', [REFUSED, person.notes]);
  });

  test('when PostgreSQL refuses the comms row and quotes it in its error, then it answers 500 and the log holds neither the goal nor the draft', async () => {
    const account = await createAccount(server, 3);
    const request = { snapId: await snapOf(account.apiKey), goal: `secret goal ${randomUUID()}`, draft: `secret draft ${REFUSED}` };

    const response = await server.post('/api/v1/snap/comms', request, { 'x-api-key': account.apiKey });

    expect(response.status).toBe(500);
    expectLoggedWithout('internal', [REFUSED, request.goal]);
  });
});

describe('a charging statement that fails in the embedded PGlite', () => {
  // PGlite runs in the built service (it cannot load inside Jest's module sandbox), and
  // copies a failed statement's bound values onto its error (`params`): the row's texts.
  test('when PGlite refuses the snap row, then it answers 500 and the log holds neither the name nor the notes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pps-log-privacy-'));
    const env = { DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'info', KEEP_REQUEST_TEXTS: 'true' };
    try {
      const migrating = await spawnServer(env);
      const created = await fetch(`${migrating.adminUrl}/admin/v1/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'pglite log privacy', credits: 3 }),
      });
      const { apiKey } = (await bodyOf(created)).data as { apiKey: string };
      migrating.child.kill('SIGTERM');
      await migrating.exited;
      await pgliteSql(dataDir, [`ALTER TABLE snaps ADD CONSTRAINT pps_test_refuse_marked CHECK (request::text NOT LIKE '%${REFUSED}%') NOT VALID`]);
      const embedded = await spawnServer(env);
      try {
        const person = { ...PERSON, name: `Ada ${REFUSED}`, notes: `secret notes ${randomUUID()}` };

        const response = await fetch(`${embedded.url}/api/v1/snap`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: JSON.stringify(person) });

        expect(response.status).toBe(500);
        await until(async () => embedded.output().includes('"kind":"internal"'), { what: "the service's log line of the failed call" });
        const logs = embedded.output();
        expect(logs).toContain('pps_test_refuse_marked');
        for (const text of [REFUSED, person.notes]) expect(logs).not.toContain(text);
      } finally {
        embedded.child.kill('SIGTERM');
        await embedded.exited;
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
