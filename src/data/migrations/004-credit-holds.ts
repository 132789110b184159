/**
 * Credit holds (docs/credit-holds.md): one row per credit set aside for a call in
 * flight. Taking a hold moves one credit out of `accounts.credits` into a row here;
 * storing the result deletes the row (the charge), a failure deletes it and gives the
 * credit back, and a row past `expires_at` (its process died) is given back by the
 * sweeper. So at every moment: granted = accounts.credits + holds + charges.
 */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('credit_holds', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('operation').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['account_id']);
    t.index(['expires_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('credit_holds');
}
