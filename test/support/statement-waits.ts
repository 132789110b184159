/**
 * Whether a database statement finished without ever waiting on something PostgreSQL
 * reports (a row lock, a commit's confirmation): `settled` when it finished, `waited` as
 * soon as `waitingCount` (a query answering one row with a `waiting` count) sees a
 * session of this database waiting. Looks every 10 ms, for at most about a minute.
 * And a table lock held for as long as a test wants every statement on the table to wait.
 */
import type { Knex } from 'knex';

export async function settledOrWaited(db: Knex, statement: Promise<unknown>, waitingCount: string): Promise<'settled' | 'waited'> {
  let settled = false;
  const done = statement.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let look = 0; look < 6_000 && !settled; look += 1) {
    const { rows } = await db.raw<{ rows: { waiting: string }[] }>(waitingCount);
    if (Number(rows[0]?.waiting) > 0) return 'waited';
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await done;
  return 'settled';
}

/** Sessions of this database waiting for a lock. */
export const WAITING_FOR_A_LOCK = `SELECT count(*) AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE NOT l.granted AND a.datname = current_database()`;

/** Sessions of this database waiting for their commit to be confirmed by a synchronous standby. */
export const WAITING_FOR_A_STANDBY = "SELECT count(*) AS waiting FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND datname = current_database()";

/**
 * Holds `table`'s ACCESS EXCLUSIVE lock in a transaction of its own: every other statement
 * on the table waits until it is released. Resolves once the lock is held, with the
 * function that ends the transaction (calling it again is harmless).
 */
export async function holdTableLock(db: Knex, table: string): Promise<() => Promise<void>> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held: () => void = () => undefined;
  const taken = new Promise<void>((resolve) => (held = resolve));
  const holding = db.transaction(async (trx) => {
    await trx.raw('LOCK TABLE ?? IN ACCESS EXCLUSIVE MODE', [table]);
    held();
    await released;
  });
  await Promise.race([taken, holding]);
  return async () => {
    release();
    await holding;
  };
}
