/**
 * The charging statement shared by snaps and analyses: one statement that turns the
 * request's credit hold into the charge, stores the row, writes the ledger entry and
 * completes the claimed idempotency key. One statement is one round trip and one atomic
 * commit.
 *
 * The hold is deleted (that is the charge: its credit left `accounts.credits` when it was
 * taken). If the sweeper already returned it, its lease having run out, an available
 * credit is taken instead, under the account's row lock; with none left, nothing is stored.
 */
import { toNumber } from './database';
import type { Executor } from './group-commit';

export interface ChargedRow {
  accountId: number;
  holdId: number;
  table: 'snaps' | 'comms_analyses';
  /** The row's columns other than account_id; JSON values already serialised. */
  columns: Record<string, string | number>;
  ledger: { reason: 'snap' | 'comms'; column: 'snap_id' | 'comms_id' };
  idempotencyKey: string | undefined;
}

/** The new row's id, or null when the hold was gone and no credit was left (nothing stored). */
export async function storeCharged(db: Executor, row: ChargedRow): Promise<number | null> {
  const names = Object.keys(row.columns);
  const result = await db.raw(
    `WITH settled AS (
       DELETE FROM credit_holds WHERE id = ? AND account_id = ?
       RETURNING account_id AS id
     ), charged AS (
       UPDATE accounts SET credits = credits - 1, updated_at = now()
       WHERE id = ? AND credits >= 1 AND NOT EXISTS (SELECT 1 FROM settled)
       RETURNING id
     ), payer AS (
       SELECT id FROM settled UNION ALL SELECT id FROM charged
     ), stored AS (
       INSERT INTO ?? (account_id, ${names.map(() => '??').join(', ')})
       SELECT id, ${names.map(() => '?').join(', ')} FROM payer
       RETURNING id, account_id
     ), ledger AS (
       INSERT INTO credit_ledger (account_id, delta, reason, ??)
       SELECT account_id, -1, ?, id FROM stored
     ), completed AS (
       UPDATE idempotency_keys SET state = 'completed', result_id = stored.id
       FROM stored
       WHERE idempotency_keys.account_id = stored.account_id AND idempotency_keys.key = ? AND idempotency_keys.state = 'pending'
     )
     SELECT id FROM stored`,
    [
      row.holdId,
      row.accountId,
      row.accountId,
      row.table,
      ...names,
      ...Object.values(row.columns),
      row.ledger.column,
      row.ledger.reason,
      row.idempotencyKey ?? null,
    ],
  );
  const [stored] = result.rows as { id: unknown }[];
  return stored ? toNumber(stored.id) : null;
}
