/**
 * Idempotency keys (docs/api.md, "Calling the API"): one row per account and key, claimed
 * as `pending` before the work and turned `completed`, pointing at the stored result, by
 * the very statement that stores the result and takes the credit. Failures delete it.
 */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('idempotency_keys', (t) => {
    t.bigInteger('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.specificType('fingerprint', 'char(64)').notNullable();
    t.text('state').notNullable();
    t.bigInteger('result_id');
    t.timestamp('locked_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['account_id', 'key']);
    t.index(['expires_at']);
    t.check("?? in ('pending', 'completed')", ['state'], 'idempotency_keys_state');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('idempotency_keys');
}
