/**
 * Per account, the upstream calls that stored no result (failed, refused, client gone):
 * the prompt and completion tokens their usage reported, how many there were, and how
 * many ended without a usage report. One row per account, added to by each such call.
 */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('failed_call_usage', (t) => {
    t.bigInteger('account_id').primary().references('id').inTable('accounts').onDelete('CASCADE');
    t.bigInteger('prompt_tokens').notNullable().defaultTo(0);
    t.bigInteger('completion_tokens').notNullable().defaultTo(0);
    t.bigInteger('calls').notNullable().defaultTo(0);
    t.bigInteger('unreported_calls').notNullable().defaultTo(0);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('failed_call_usage');
}
