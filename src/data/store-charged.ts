/**
 * The charging statement shared by snaps and analyses: one statement that takes one
 * credit if there is one, stores the row, writes the ledger entry and completes the
 * claimed idempotency key. One statement is one round trip and one atomic commit; the
 * row lock on the account queues concurrent charges, and `credits >= 1`, re-checked
 * under that lock, stops them at zero.
 */
import { toNumber } from './database';
import type { Executor } from './group-commit';

export interface ChargedRow {
  accountId: number;
  table: 'snaps' | 'comms_analyses';
  /** The row's columns other than account_id; JSON values already serialised. */
  columns: Record<string, string | number | null>;
  ledger: { reason: 'snap' | 'comms'; column: 'snap_id' | 'comms_id' };
  idempotencyKey: string | undefined;
}

/** The new row's id, or null when the account had no credit left (nothing stored). */
export async function storeCharged(db: Executor, row: ChargedRow): Promise<number | null> {
  const names = Object.keys(row.columns);
  const result = await db.raw(
    `WITH charged AS (
       UPDATE accounts SET credits = credits - 1, updated_at = now()
       WHERE id = ? AND credits >= 1
       RETURNING id
     ), stored AS (
       INSERT INTO ?? (account_id, ${names.map(() => '??').join(', ')})
       SELECT id, ${names.map(() => '?').join(', ')} FROM charged
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
    [row.accountId, row.table, ...names, ...Object.values(row.columns), row.ledger.column, row.ledger.reason, row.idempotencyKey ?? null],
  );
  const [stored] = result.rows as { id: unknown }[];
  return stored ? toNumber(stored.id) : null;
}
