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
import { KnexAccountRepository } from '../../src/data/account-repository';
import { KnexCreditHoldRepository } from '../../src/data/credit-hold-repository';
import { createDatabase, migrateToLatest } from '../../src/data/database';
import { ChargingStatements } from '../../src/data/store-charged';
import { returnExpiredHolds } from '../../src/data/sweeper';
import type { CreditHold } from '../../src/domain/ports';
import { requireEnv } from '../support/test-server';

jest.setTimeout(120_000);

describe('account row locks', () => {
  let db: Knex;
  let holds: KnexCreditHoldRepository;
  let charges: ChargingStatements;
  let serial = 0;

  beforeAll(async () => {
    db = createDatabase({ databaseUrl: requireEnv('DATABASE_URL'), dataDir: '', poolMax: 4 });
    await migrateToLatest(db);
    holds = new KnexCreditHoldRepository(db, 60, { maxWaitMs: 1, maxBatch: 64 });
    charges = new ChargingStatements(db, { maxWaitMs: 1, maxBatch: 64 });
  });
  afterAll(() => db.destroy());

  async function accountWith(credits: number): Promise<number> {
    serial += 1;
    const hash = `row-lock-${process.pid}-${Date.now()}-${serial}`;
    const { accountId } = await new KnexAccountRepository(db).create({ name: 'row lock', credits, keyHash: hash, keyPrefix: hash.slice(0, 12) });
    return accountId;
  }

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

  /** `settled` when the statement finished, `waited` as soon as any backend of this database waits on a row lock. */
  async function finishesWithoutWaiting(statement: Promise<unknown>): Promise<'settled' | 'waited'> {
    let settled = false;
    const done = statement.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let look = 0; look < 6_000 && !settled; look += 1) {
      const { rows } = await db.raw<{ rows: { waiting: string }[] }>(
        `SELECT count(*) AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE NOT l.granted AND a.datname = current_database()`,
      );
      if (Number(rows[0]?.waiting) > 0) return 'waited';
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await done;
    return 'settled';
  }

  async function creditsOf(accountId: number): Promise<number> {
    return Number((await db('accounts').where({ id: accountId }).first('credits'))?.credits);
  }

  async function expire(hold: CreditHold): Promise<void> {
    await db('credit_holds').where({ id: hold.holdId }).update({ expires_at: db.raw("now() - interval '1 second'") });
  }

  test('when a hold is taken while a row referencing the account is being inserted, then it does not wait for that insert', async () => {
    const accountId = await accountWith(3);

    const outcome = await withKeyShareLockOn(accountId, () => finishesWithoutWaiting(holds.hold(accountId, 'snap')));

    expect(outcome).toBe('settled');
    expect(await db('credit_holds').where({ account_id: accountId }).count<{ n: string }[]>({ n: '*' })).toEqual([{ n: '1' }]);
  });

  test('when a hold is released while a row referencing the account is being inserted, then it does not wait for that insert', async () => {
    const accountId = await accountWith(3);
    const hold = (await holds.hold(accountId, 'snap')) as CreditHold;

    const outcome = await withKeyShareLockOn(accountId, () => finishesWithoutWaiting(holds.release(hold)));

    expect(outcome).toBe('settled');
    expect(await creditsOf(accountId)).toBe(3);
  });

  test('when the sweeper returns an expired hold while a row referencing the account is being inserted, then it does not wait for that insert', async () => {
    const accountId = await accountWith(3);
    await expire((await holds.hold(accountId, 'snap')) as CreditHold);

    const outcome = await withKeyShareLockOn(accountId, () => finishesWithoutWaiting(returnExpiredHolds(db)));

    expect(outcome).toBe('settled');
    expect(await creditsOf(accountId)).toBe(3);
  });

  test('when a call whose hold the sweeper returned is charged while a row referencing the account is being inserted, then the charge does not wait for that insert', async () => {
    const accountId = await accountWith(3);
    const hold = (await holds.hold(accountId, 'snap')) as CreditHold;
    await expire(hold);
    await returnExpiredHolds(db);
    const row = {
      accountId,
      holdId: hold.holdId,
      table: 'snaps' as const,
      columns: { request: { name: 'Ada' }, prediction: { primary: 'Analyst' }, predictor: 'embedded', model: 'test', prompt_version: 'v1' },
      ledger: { reason: 'snap' as const, column: 'snap_id' as const },
      claim: undefined,
    };

    const outcome = await withKeyShareLockOn(accountId, () => finishesWithoutWaiting(charges.store(row)));

    expect(outcome).toBe('settled');
    expect(await creditsOf(accountId)).toBe(2);
  });
});
