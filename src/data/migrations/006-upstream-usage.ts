/**
 * Token usage and the answering upstream, stored with each snap and analysis beside the
 * predictor, model and prompt version. Nullable: older rows, the embedded predictor,
 * and upstreams that send no `usage` have none.
 */
import type { Knex } from 'knex';

const TABLES = ['snaps', 'comms_analyses'] as const;

export async function up(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.text('upstream');
      t.integer('prompt_tokens');
      t.integer('completion_tokens');
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.dropColumn('upstream');
      t.dropColumn('prompt_tokens');
      t.dropColumn('completion_tokens');
    });
  }
}
