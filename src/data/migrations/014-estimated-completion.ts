/**
 * Every token counted: of a failed call's completion tokens, those the service estimated
 * from the chunks of a streamed answer that arrived before it ended without a usage report
 * (upstream/openai/estimated-usage.ts). They are part of `completion_tokens`; this column
 * says how many of them are estimates, as `estimated_prompt_tokens` (migration 012) does.
 */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('failed_call_usage', (t) => {
    t.bigInteger('estimated_completion_tokens').notNullable().defaultTo(0);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('failed_call_usage', (t) => {
    t.dropColumn('estimated_completion_tokens');
  });
}
