/**
 * Who a charge belongs to:
 * - `idempotency_keys.owner`: the token of the call that holds a pending claim. Release and
 *   completion act only on the caller's own claim, so a call whose claim was taken over
 *   (it outlived its lease) neither deletes the new claim nor charges for it.
 * - `hold_id` on snaps and analyses: the credit hold the row was charged from, unique per
 *   paid request. When the answer to a COMMIT is lost, the row is looked up by it to learn
 *   whether the charge committed; the unique index also means a hold is charged once.
 */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('idempotency_keys', (t) => {
    t.text('owner');
  });
  for (const table of ['snaps', 'comms_analyses']) {
    await db.schema.alterTable(table, (t) => {
      t.bigInteger('hold_id').unique();
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['snaps', 'comms_analyses']) {
    await db.schema.alterTable(table, (t) => {
      t.dropColumn('hold_id');
    });
  }
  await db.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('owner');
  });
}
