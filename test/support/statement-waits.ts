/**
 * Whether a database statement finished without ever waiting on something PostgreSQL
 * reports (a row lock, a commit's confirmation): `settled` when it finished, `waited` as
 * soon as `waitingCount` (a query answering one row with a `waiting` count) sees a
 * session of this database waiting. Looks every 10 ms, for at most about a minute.
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
