/**
 * Personal data that expires and can be erased (docs/privacy.md):
 * - the ledger keeps its rows when the snap or analysis it charged is deleted: its
 *   `snap_id` and `comms_id` stay as plain ids (amounts and ids only), no longer foreign keys;
 * - `snaps.subject_digest`: what erasure by person matches on (subject-digest.ts), filled
 *   in here for the snaps already stored;
 * - `idempotency_keys.result_table`: which table `result_id` is in, so that deleting a
 *   snap or an analysis deletes exactly the replays that point at it (null on keys
 *   completed before this migration: those are matched by id in either table);
 * - indexes for the sweeper's expiry (by `created_at`) and for deleting an analysis with
 *   its snap (`comms_analyses.snap_id`) and a replay with its row (`result_id`);
 * - `erasures`: the audit record of each erasure (what, when, which admin token), with no
 *   personal data.
 */
import type { Knex } from 'knex';
import { subjectDigest } from '../subject-digest';

const BACKFILL_ROWS = 1000;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('credit_ledger', (t) => {
    t.dropForeign(['snap_id']);
    t.dropForeign(['comms_id']);
  });
  await db.schema.alterTable('snaps', (t) => {
    t.specificType('subject_digest', 'char(64)');
    t.index(['account_id', 'subject_digest']);
    t.index(['created_at']);
  });
  await db.schema.alterTable('comms_analyses', (t) => {
    t.index(['snap_id']);
  });
  await db.schema.alterTable('idempotency_keys', (t) => {
    t.text('result_table');
    t.index(['result_id']);
  });
  await db.schema.createTable('erasures', (t) => {
    t.bigIncrements('id').primary();
    t.timestamp('erased_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.text('scope').notNullable();
    t.bigInteger('account_id');
    t.bigInteger('snap_id');
    t.text('admin_token_id').notNullable();
    t.integer('snaps').notNullable();
    t.integer('comms_analyses').notNullable();
    t.integer('replays').notNullable();
    t.check("?? in ('snap', 'account', 'person')", ['scope'], 'erasures_scope');
  });
  await backfillDigests(db);
}

/** The digest of every snap stored before this migration, a thousand rows a statement. */
async function backfillDigests(db: Knex): Promise<void> {
  let after = 0;
  for (;;) {
    const rows: { id: string | number; account_id: string | number; name: unknown }[] = await db('snaps')
      .select('id', 'account_id', db.raw("request->>'name' as name"))
      .where('id', '>', after)
      .orderBy('id')
      .limit(BACKFILL_ROWS);
    if (rows.length === 0) return;
    await db.raw(
      `UPDATE snaps SET subject_digest = d.digest
       FROM (VALUES ${rows.map(() => '(?::bigint, ?::char(64))').join(', ')}) AS d(id, digest)
       WHERE snaps.id = d.id`,
      rows.flatMap((row) => [row.id, subjectDigest(Number(row.account_id), typeof row.name === 'string' ? row.name : '')]),
    );
    after = Number(rows[rows.length - 1]?.id);
  }
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('erasures');
  await db.schema.alterTable('idempotency_keys', (t) => {
    t.dropIndex(['result_id']);
    t.dropColumn('result_table');
  });
  await db.schema.alterTable('comms_analyses', (t) => {
    t.dropIndex(['snap_id']);
  });
  await db.schema.alterTable('snaps', (t) => {
    t.dropIndex(['created_at']);
    t.dropIndex(['account_id', 'subject_digest']);
    t.dropColumn('subject_digest');
  });
  // Ids of deleted rows may be left in the ledger: the keys come back NOT VALID, checking only new rows.
  await db.raw('ALTER TABLE credit_ledger ADD CONSTRAINT credit_ledger_snap_id_foreign FOREIGN KEY (snap_id) REFERENCES snaps (id) NOT VALID');
  await db.raw('ALTER TABLE credit_ledger ADD CONSTRAINT credit_ledger_comms_id_foreign FOREIGN KEY (comms_id) REFERENCES comms_analyses (id) NOT VALID');
}
