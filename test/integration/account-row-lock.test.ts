/**
 * The statements that change an account's credits (hold, release, charge, the sweeper)
 * lock the account's row `FOR NO KEY UPDATE` (src/data/account-row-lock.ts), so none of
 * them waits for a transaction that holds the `FOR KEY SHARE` lock PostgreSQL's
 * foreign-key check takes while a row that references the account is inserted. With
 * `FOR UPDATE` they waited, and a charge batch inserting rows in its own order deadlocked
 * with a hold batch locking accounts in id order (40P01, a 500 to the client).
 *
 * Each test opens such a transaction on the account, runs the statement, and watches
 * PostgreSQL for the statement waiting on a lock: it must finish without ever waiting.
 */
import type { Knex } from 'knex';
import { KnexCreditHoldRepository } from '../../src/data/credit-hold-repository';
import { createDatabase, migrateToLatest } from '../../src/data/database';
import { ChargingStatements } from '../../src/data/store-charged';
import { returnExpiredHolds } from '../../src/data/sweeper';
import type { CreditHold } from '../../src/domain/ports';
import { settledOrWaited, WAITING_FOR_A_LOCK } from '../support/statement-waits';
import { snapRow } from '../support/charged-rows';
import { accountIn, balanceIn } from '../support/db-accounts';
import { requireEnv } from '../support/test-server';

jest.setTimeout(120_000);

describe('account row locks', () => {
  let db: Knex;
  let holds: KnexCreditHoldRepository;
  let charges: ChargingStatements;

  beforeAll(async () => {
    db = await createDatabase({ databaseUrl: requireEnv('DATABASE_URL'), dataDir: '', poolMax: 4 });
    await migrateToLatest(db);
    holds = new KnexCreditHoldRepository(db, 60, { maxWaitMs: 1, maxBatch: 64 });
    charges = new ChargingStatements(db, { maxWaitMs: 1, maxBatch: 64 });
  });
  afterAll(() => db.destroy());

  /** A transaction holding the lock a foreign-key check takes on the account (as a concurrent charge's insert does), open while `work` runs. */
  async function withKeyShareLockOn<T>(accountId: number, work: () => Promise<T>): Promise<T> {
    const trx = await db.transaction();
    try {
      await trx.raw('SELECT id FROM accounts WHERE id = ? FOR KEY SHARE', [accountId]);
      return await work();
    } finally {
      await trx.rollback();
    }
  }

  async function expire(hold: CreditHold): Promise<void> {
    await db('credit_holds').where({ id: hold.holdId }).update({ expires_at: db.raw("now() - interval '1 second'") });
  }

  test('when a hold is taken while a row referencing the account is being inserted, then it does not wait for that insert', async () => {
    const accountId = await accountIn(db, 3);

    const outcome = await withKeyShareLockOn(accountId, () => settledOrWaited(db, holds.hold(accountId, 'snap'), WAITING_FOR_A_LOCK));

    expect(outcome).toBe('settled');
    expect(await db('credit_holds').where({ account_id: accountId }).count<{ n: string }[]>({ n: '*' })).toEqual([{ n: '1' }]);
  });

  test('when a hold is released while a row referencing the account is being inserted, then it does not wait for that insert', async () => {
    const accountId = await accountIn(db, 3);
    const hold = (await holds.hold(accountId, 'snap')) as CreditHold;

    const outcome = await withKeyShareLockOn(accountId, () => settledOrWaited(db, holds.release(hold), WAITING_FOR_A_LOCK));

    expect(outcome).toBe('settled');
    expect((await balanceIn(db, accountId)).credits).toBe(3);
  });

  test('when the sweeper returns an expired hold while a row referencing the account is being inserted, then it does not wait for that insert', async () => {
    const accountId = await accountIn(db, 3);
    await expire((await holds.hold(accountId, 'snap')) as CreditHold);

    const outcome = await withKeyShareLockOn(accountId, () => settledOrWaited(db, returnExpiredHolds(db), WAITING_FOR_A_LOCK));

    expect(outcome).toBe('settled');
    expect((await balanceIn(db, accountId)).credits).toBe(3);
  });

  test('when a call whose hold the sweeper returned is charged while a row referencing the account is being inserted, then the charge does not wait for that insert', async () => {
    const accountId = await accountIn(db, 3);
    const hold = (await holds.hold(accountId, 'snap')) as CreditHold;
    await expire(hold);
    await returnExpiredHolds(db);
    const row = snapRow(hold);

    const outcome = await withKeyShareLockOn(accountId, () => settledOrWaited(db, charges.store(row), WAITING_FOR_A_LOCK));

    expect(outcome).toBe('settled');
    expect((await balanceIn(db, accountId)).credits).toBe(2);
  });
});
