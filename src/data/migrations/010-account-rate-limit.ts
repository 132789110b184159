/**
 * An account's own per-account rate limit (openapi/admin.yaml, `setAccountRateLimit`):
 * requests per window from any IPs; null means the service's default
 * (ACCOUNT_RATE_LIMIT_MAX). Expand-only: a nullable column the running version ignores.
 */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.integer('rate_limit').nullable().checkPositive();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.dropColumn('rate_limit');
  });
}
