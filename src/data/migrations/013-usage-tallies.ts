/**
 * An account's usage over time (openapi/admin.yaml, `getAccountUsage`), in ids, counts
 * and model names only, so it outlives the results' expiry and erasure as the ledger does:
 * - each debit of the ledger keeps the model, upstream and reported tokens of the call it
 *   charged (written by the charging statement, charge-statement.ts: no statement more);
 * - `usage_tallies` counts per hour, operation, outcome and model what stored no result:
 *   the paid calls that failed, by kind (domain/failure-kind.ts), and the upstream calls
 *   they, or a successful call's failed primary, made, with their tokens reported or
 *   estimated (usage-repository.ts, beside the failed-call usage of migration 008).
 * Counted from this migration on: earlier calls are in the ledger without tokens.
 */
import type { Knex } from 'knex';

const COUNTS = ['calls', 'upstream_calls', 'prompt_tokens', 'completion_tokens', 'estimated_prompt_tokens', 'estimated_completion_tokens', 'unreported_calls'] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('credit_ledger', (t) => {
    t.text('model');
    t.text('upstream');
    t.bigInteger('prompt_tokens');
    t.bigInteger('completion_tokens');
  });
  await db.schema.createTable('usage_tallies', (t) => {
    t.bigInteger('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.timestamp('hour', { useTz: true }).notNullable();
    t.text('operation').notNullable();
    t.text('outcome').notNullable();
    t.text('model').notNullable();
    for (const count of COUNTS) t.bigInteger(count).notNullable().defaultTo(0);
    t.primary(['account_id', 'hour', 'operation', 'outcome', 'model']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('usage_tallies');
  await db.schema.alterTable('credit_ledger', (t) => {
    t.dropColumn('model');
    t.dropColumn('upstream');
    t.dropColumn('prompt_tokens');
    t.dropColumn('completion_tokens');
  });
}
