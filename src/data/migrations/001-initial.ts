/** Accounts, their API keys, snaps and the credit ledger. */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('accounts', (t) => {
    t.bigIncrements('id').primary();
    t.text('name').notNullable();
    t.integer('credits').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.check('?? >= 0', ['credits'], 'accounts_credits_not_negative');
  });

  await db.schema.createTable('api_keys', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.specificType('key_hash', 'char(64)').notNullable().unique();
    t.text('prefix').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('deactivated_at', { useTz: true });
    t.index(['account_id']);
  });

  await db.schema.createTable('snaps', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.jsonb('request').notNullable();
    t.jsonb('prediction').notNullable();
    t.text('predictor').notNullable();
    t.text('model').notNullable();
    t.text('prompt_version').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['account_id', 'id']);
  });

  await db.schema.createTable('credit_ledger', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.integer('delta').notNullable();
    t.text('reason').notNullable();
    t.bigInteger('snap_id').references('snaps.id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['account_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('credit_ledger');
  await db.schema.dropTable('snaps');
  await db.schema.dropTable('api_keys');
  await db.schema.dropTable('accounts');
}
