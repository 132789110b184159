/** Communication analyses, charged like snaps. */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('comms_analyses', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.bigInteger('snap_id').notNullable().references('snaps.id').onDelete('CASCADE');
    t.jsonb('request').notNullable();
    t.jsonb('response').notNullable();
    t.text('predictor').notNullable();
    t.text('model').notNullable();
    t.text('prompt_version').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['account_id', 'id']);
  });
  await db.schema.alterTable('credit_ledger', (t) => {
    t.bigInteger('comms_id').references('comms_analyses.id');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('credit_ledger', (t) => {
    t.dropColumn('comms_id');
  });
  await db.schema.dropTable('comms_analyses');
}
