/**
 * onOwnConnection (src/data/database.ts), the one adapter over knex's client internals
 * (`acquireConnection`, `releaseConnection`) and pg's `Client.processID`, through which
 * the charging statement learns which PostgreSQL backend ran it. If an upgrade of knex
 * or pg moves either, these fail: the lost-answer recovery would otherwise quietly stop
 * ending the backend before its look-up.
 */
import type { Knex } from 'knex';
import { createDatabase, onOwnConnection, StatementFailed } from '../../src/data/database';
import { requireEnv } from '../support/test-server';

let db: Knex;

beforeAll(() => {
  db = createDatabase({ databaseUrl: requireEnv('DATABASE_URL'), dataDir: '', poolMax: 1 });
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
});
