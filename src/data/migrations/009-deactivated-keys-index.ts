/**
 * The key cache's deactivation poll (caller-repository.ts `deactivatedWithin`), which
 * every process runs once a second: `api_keys` by `deactivated_at` over the last few
 * seconds. A partial index of the deactivated keys only (a small share of the rows, and
 * nothing to maintain for the active ones) serves it instead of a scan of every key ever
 * issued. Expand-only: an index, nothing the running version reads is changed.
 */
import type { Knex } from 'knex';

export const INDEX = 'api_keys_deactivated_at_index';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('api_keys', (t) => {
    t.index(['deactivated_at'], INDEX, { predicate: db.whereNotNull('deactivated_at') });
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('api_keys', (t) => {
    t.dropIndex(['deactivated_at'], INDEX);
  });
}
