/**
 * Every token counted: a stored result whose answer came without a usage report keeps the
 * service's estimate of its tokens (upstream/openai/estimated-usage.ts) in `prompt_tokens`
 * and `completion_tokens`, and this column says they are one, on the result and on its
 * ledger debit. Rows stored before it stay false, their tokens null.
 */
import type { Knex } from 'knex';

const TABLES = ['snaps', 'comms_analyses', 'credit_ledger'] as const;

export async function up(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.boolean('tokens_estimated').notNullable().defaultTo(false);
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.dropColumn('tokens_estimated');
    });
  }
}
