/**
 * Holds and releases commit without waiting for the commit to be flushed
 * (src/data/reservation-commit.ts); charges wait for it. The tests run with `fsync` off,
 * so a flush is instant and cannot be told apart: instead the test server is told that
 * every synchronous commit must be confirmed by a standby that does not exist
 * (`synchronous_standby_names`), so a commit that waits is seen waiting (`SyncRep` in
 * pg_stat_activity) and one that does not wait settles. The setting is reset afterwards,
 * which also releases anything that waited.
 */
import type { Knex } from 'knex';
import { KnexCreditHoldRepository } from '../../src/data/credit-hold-repository';
import { createDatabase, migrateToLatest } from '../../src/data/database';
import { ChargingStatements } from '../../src/data/store-charged';
import type { CreditHold } from '../../src/domain/ports';
import { settledOrWaited, WAITING_FOR_A_STANDBY } from '../support/statement-waits';
import { snapRow } from '../support/charged-rows';
import { accountIn, balanceIn } from '../support/db-accounts';
import { requireEnv } from '../support/test-server';

jest.setTimeout(120_000);

describe('reservation commits', () => {
  let db: Knex;
  /** One connection, so that the test knows the setting has reached the session that runs the statements. */
  let one: Knex;
  let holds: KnexCreditHoldRepository;
  let charges: ChargingStatements;

  beforeAll(async () => {
    db = await createDatabase({ databaseUrl: requireEnv('DATABASE_URL'), dataDir: '', poolMax: 2 });
    await migrateToLatest(db);
    one = await createDatabase({ databaseUrl: requireEnv('DATABASE_URL'), dataDir: '', poolMax: 1 });
    holds = new KnexCreditHoldRepository(one, 60, { maxWaitMs: 1, maxBatch: 64 });
    charges = new ChargingStatements(one, { maxWaitMs: 1, maxBatch: 64 });
  });
  afterAll(async () => {
    await one.destroy();
    await db.destroy();
  });

  /** Runs `work` while every synchronous commit waits for a standby that never answers. */
  async function withCommitsThatWait<T>(work: () => Promise<T>): Promise<T> {
    await db.raw("ALTER SYSTEM SET synchronous_standby_names = 'pps_no_such_standby'");
    await db.raw('SELECT pg_reload_conf()');
    try {
      for (let look = 0; look < 600; look += 1) {
        const { rows } = await one.raw<{ rows: { names: string }[] }>("SELECT current_setting('synchronous_standby_names') AS names");
        if (rows[0]?.names === 'pps_no_such_standby') return await work();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the test session never saw synchronous_standby_names');
    } finally {
      await db.raw('ALTER SYSTEM RESET synchronous_standby_names');
      await db.raw('SELECT pg_reload_conf()');
    }
  }

  test('when a credit is held and the hold released, then neither commit waits to be flushed', async () => {
    const accountId = await accountIn(db, 5);

    const outcomes = await withCommitsThatWait(async () => {
      let hold: CreditHold | null = null;
      const held = await settledOrWaited(db, holds.hold(accountId, 'snap').then((taken) => (hold = taken)), WAITING_FOR_A_STANDBY);
      const released = hold ? await settledOrWaited(db, holds.release(hold), WAITING_FOR_A_STANDBY) : 'no hold';
      return { held, released };
    });

    expect(outcomes).toEqual({ held: 'settled', released: 'settled' });
    expect((await balanceIn(db, accountId)).credits).toBe(5);
  });

  test('when a hold is charged, then the charge waits for its commit to be flushed', async () => {
    const accountId = await accountIn(db, 5);
    const hold = (await holds.hold(accountId, 'snap')) as CreditHold;
    const row = snapRow(hold);

    const { outcome, charged } = await withCommitsThatWait(async () => {
      const charging = charges.store(row);
      return { outcome: await settledOrWaited(db, charging, WAITING_FOR_A_STANDBY), charged: charging };
    });

    expect(outcome).toBe('waited');
    await expect(charged).resolves.toMatchObject({ status: 'stored' });
  });
});
