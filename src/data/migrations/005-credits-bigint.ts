/**
 * Balances as bigint: an int4 balance overflowed (a 500) after three grants of 1e9.
 * The check keeps a balance within what JavaScript numbers hold exactly; the admin API
 * refuses a grant that would cross it with a 400 before it gets here. Ledger deltas stay
 * int4: a grant is at most 1e9, a charge is -1.
 */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE accounts ALTER COLUMN credits TYPE bigint');
  await db.raw('ALTER TABLE accounts ADD CONSTRAINT accounts_credits_js_safe CHECK (credits <= 9007199254740991)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE accounts DROP CONSTRAINT accounts_credits_js_safe');
  await db.raw('ALTER TABLE accounts ALTER COLUMN credits TYPE integer');
}
