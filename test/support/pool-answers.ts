/**
 * After a test terminates one of the service's database backends: the terminated
 * connection goes back to the service's pool an instant before its socket's end is seen,
 * and the next query there would fail (503): wait until the pool's queries answer again.
 */
import type { Knex } from 'knex';
import { until } from './until';

export async function untilPoolAnswers(db: Knex): Promise<void> {
  let answered = 0;
  await until(
    async () => {
      answered = await db.raw('select 1').then(
        () => answered + 1,
        () => 0,
      );
      return answered >= 5;
    },
    { intervalMs: 0, what: "five answers in a row from the service's pool after the terminated backend" },
  );
}
