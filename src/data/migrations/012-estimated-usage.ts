/**
 * Every token counted: of a failed call's prompt tokens, those the service estimated
 * because the call ended without a usage report (upstream/openai/estimated-usage.ts).
 * They are part of `prompt_tokens`; this column says how many of them are estimates.
 */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('failed_call_usage', (t) => {
    t.bigInteger('estimated_prompt_tokens').notNullable().defaultTo(0);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('failed_call_usage', (t) => {
    t.dropColumn('estimated_prompt_tokens');
  });
}
