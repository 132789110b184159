/**
 * onOwnConnection (src/data/database.ts), the one adapter over knex's client internals
 * (`acquireConnection`, `releaseConnection`) and pg's `Client.processID`, through which
 * the charging statement learns which PostgreSQL backend ran it. If an upgrade of knex
 * or pg moves either, these fail: the lost-answer recovery would otherwise quietly stop
 * ending the backend before its look-up. Its statements are named prepared statements on
 * PostgreSQL (pg's public `query({ name })`), parsed once per connection.
 */
import type { Knex } from 'knex';
import { createDatabase, onOwnConnection, StatementFailed } from '../../src/data/database';
import { requireEnv } from '../support/test-server';

let db: Knex;

beforeAll(async () => {
  db = await createDatabase({ databaseUrl: requireEnv('DATABASE_URL'), dataDir: '', poolMax: 1 });
});
afterAll(() => db.destroy());

describe('onOwnConnection', () => {
  test('when the statement fails, then the failure names the PostgreSQL backend that ran it', async () => {
    const failure: unknown = await onOwnConnection(db, "DO $$ BEGIN RAISE EXCEPTION 'backend %', pg_backend_pid() USING ERRCODE = 'P0001'; END $$", {}).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(StatementFailed);
    const { cause, backendPid } = failure as StatementFailed;
    expect(cause).toMatchObject({ code: 'P0001' });
    expect(backendPid).toEqual(expect.any(Number));
    expect((cause as Error).message).toMatch(new RegExp(`backend ${backendPid}$`));
  });

  test('when statements run one after another on a pool of one, then each gets the connection back (none is kept)', async () => {
    for (let i = 0; i < 5; i += 1) {
      const result = await onOwnConnection(db, 'SELECT :n::int AS n', { n: i });
      expect(result.rows).toEqual([{ n: i }]);
      await onOwnConnection(db, 'SELECT 1/0', {}).catch(() => undefined);
    }
  });

  test('when a statement runs twice on one connection, then it is a prepared statement of that session, named by its text', async () => {
    await onOwnConnection(db, 'SELECT :n::int AS n', { n: 1 });
    const again = await onOwnConnection(db, 'SELECT :n::int AS n', { n: 2 });
    const { rows } = await onOwnConnection(db, 'SELECT name, statement FROM pg_prepared_statements WHERE statement = :text', { text: 'SELECT $1::int AS n' });

    expect(again.rows).toEqual([{ n: 2 }]);
    expect(rows).toEqual([{ name: expect.stringMatching(/^pps_[0-9a-f]{32}$/), statement: 'SELECT $1::int AS n' }]);
  });
});
