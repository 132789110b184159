/**
 * Holds, releases and charges of concurrent requests share one statement per batch
 * (src/data/credit-hold-repository.ts, src/data/store-charged.ts), on real PostgreSQL:
 * each request still gets its own answer and its own error, and an account asked for
 * more than it has credits pays for exactly as many as it has. (PGlite cannot load inside
 * Jest's module sandbox: the same statements run on it through the built service in
 * credit-holds.test.ts and embedded-mode.test.ts.)
 */
import type { Knex } from 'knex';
import { KnexCreditHoldRepository } from '../../src/data/credit-hold-repository';
import { createDatabase, migrateToLatest } from '../../src/data/database';
import { ChargingStatements } from '../../src/data/store-charged';
import type { CreditHold } from '../../src/domain/ports';
import { snapRow } from '../support/charged-rows';
import { accountIn, balanceIn } from '../support/db-accounts';
import { requireEnv } from '../support/test-server';

jest.setTimeout(120_000);

describe('statements shared by a batch', () => {
  let db: Knex;
  let holds: KnexCreditHoldRepository;
  let charges: ChargingStatements;

  beforeAll(async () => {
    db = await createDatabase({ databaseUrl: requireEnv('DATABASE_URL'), dataDir: '', poolMax: 4 });
    await migrateToLatest(db);
    holds = new KnexCreditHoldRepository(db, 60, { maxWaitMs: 20, maxBatch: 1000 });
    charges = new ChargingStatements(db, { maxWaitMs: 20, maxBatch: 1000 });
  });
  afterAll(() => db.destroy());

  test('when one batch asks for more holds than an account has credits, then exactly that many are granted, the earliest first', async () => {
    const [poor, rich] = [await accountIn(db, 3), await accountIn(db, 100)];
    const asks = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? poor : rich));

    const granted = await Promise.all(asks.map((accountId) => holds.hold(accountId, 'snap')));

    const poorGranted = granted.filter((hold, i) => asks[i] === poor && hold !== null);
    expect(poorGranted).toHaveLength(3);
    expect(granted.slice(0, 6).filter((_, i) => i % 2 === 0).every((hold) => hold !== null)).toBe(true);
    expect(granted.filter((hold, i) => asks[i] === rich && hold !== null)).toHaveLength(10);
    expect(new Set(granted.flatMap((hold) => (hold ? [hold.holdId] : []))).size).toBe(13);
    for (const hold of granted) if (hold) expect(asks).toContain(hold.accountId);
    expect(await balanceIn(db, poor)).toEqual({ credits: 0, held: 3 });
    expect(await balanceIn(db, rich)).toEqual({ credits: 90, held: 10 });
  });

  test('when a batch of holds is released, then every credit comes back once, even a hold released twice', async () => {
    const accountId = await accountIn(db, 5);
    const taken = await Promise.all(Array.from({ length: 5 }, () => holds.hold(accountId, 'comms')));
    const released = taken.flatMap((hold) => (hold ? [hold] : []));
    expect(released).toHaveLength(5);

    await Promise.all([...released, released[0] as (typeof released)[number]].map((hold) => holds.release(hold)));

    expect(await balanceIn(db, accountId)).toEqual({ credits: 5, held: 0 });
  });

  async function holdsFor(accountId: number, n: number): Promise<CreditHold[]> {
    const taken = await Promise.all(Array.from({ length: n }, () => holds.hold(accountId, 'snap')));
    return taken.flatMap((hold) => (hold ? [hold] : []));
  }

  test('when one batch charges several holds, then each request gets its own stored row and is charged once', async () => {
    const accountId = await accountIn(db, 5);
    const taken = await holdsFor(accountId, 4);

    const outcomes = await Promise.all(taken.map((hold, i) => charges.store(snapRow(hold, `person ${i}`))));

    const ids = outcomes.map((outcome) => (outcome.status === 'stored' ? outcome.id : NaN));
    expect(new Set(ids).size).toBe(4);
    const rows = await db('snaps').whereIn('id', ids).orderBy('id').select('id', 'request', 'hold_id');
    expect(rows.map((row) => [Number(row.id), row.request.name, Number(row.hold_id)])).toEqual(
      taken.map((hold, i) => [ids[i], `person ${i}`, hold.holdId]).sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    expect(await balanceIn(db, accountId)).toEqual({ credits: 1, held: 0 });
    const [ledger] = await db('credit_ledger').where({ account_id: accountId }).sum('delta as sum');
    expect(Number(ledger?.sum)).toBe(1);
  });

  test('when the holds of a batch are gone and the account has fewer credits than requests, then exactly that many are stored', async () => {
    const accountId = await accountIn(db, 3);
    const taken = await holdsFor(accountId, 3);
    // As the sweeper does when a lease runs out: the holds go, their credits come back; then two are spent elsewhere.
    await db('credit_holds').whereIn('id', taken.map((hold) => hold.holdId)).delete();
    await db('accounts').where({ id: accountId }).update({ credits: 1 });

    const outcomes = await Promise.all(taken.map((hold) => charges.store(snapRow(hold))));

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['no_credit', 'no_credit', 'stored']);
    expect(await balanceIn(db, accountId)).toEqual({ credits: 0, held: 0 });
  });

  test('when one row of a batch cannot be stored, then only its own request fails and the others are stored', async () => {
    const accountId = await accountIn(db, 3);
    const taken = await holdsFor(accountId, 3);
    const bad = { ...snapRow(taken[1] as CreditHold), columns: { ...snapRow(taken[1] as CreditHold).columns, predictor: 'nul \u0000 byte' } };

    const outcomes = await Promise.allSettled([charges.store(snapRow(taken[0] as CreditHold)), charges.store(bad), charges.store(snapRow(taken[2] as CreditHold))]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await balanceIn(db, accountId)).toEqual({ credits: 0, held: 1 });
  });
});
