/**
 * The charging statement shared by snaps and analyses: one statement that turns the
 * request's credit hold into the charge, stores the row, writes the ledger entry and
 * completes the call's idempotency claim. One statement is one round trip and one atomic
 * commit, batched with concurrent requests' statements by the group commit.
 *
 * - The hold is deleted (that is the charge: its credit left `accounts.credits` when it
 *   was taken). If the sweeper already returned it, its lease having run out, an
 *   available credit is taken instead, under the account's row lock; with none left,
 *   nothing is stored.
 * - With an Idempotency-Key, the claim must still be this call's (`owner`, locked for the
 *   statement): a call that outlived its lease and lost the key stores and charges nothing.
 * - When the statement's answer is lost (the connection dropped during the commit), its
 *   outcome is looked up by the row's `hold_id` on a fresh connection, not guessed.
 */
import type { Knex } from 'knex';
import { toNumber } from './database';
import type { Executor, GroupCommit } from './group-commit';
import type { ChargeOutcome, ClaimedKey, Provenance } from '../domain/ports';

export interface ChargedRow {
  accountId: number;
  holdId: number;
  table: 'snaps' | 'comms_analyses';
  /** The row's columns other than account_id and hold_id; JSON values already serialised. */
  columns: Record<string, string | number | null>;
  ledger: { reason: 'snap' | 'comms'; column: 'snap_id' | 'comms_id' };
  claim: ClaimedKey | undefined;
}

/** Which predictor, model, prompt and upstream produced a row, and the tokens it used. */
export function provenanceColumns(provenance: Provenance): ChargedRow['columns'] {
  return {
    predictor: provenance.predictor,
    model: provenance.model,
    prompt_version: provenance.promptVersion,
    upstream: provenance.upstream ?? null,
    prompt_tokens: provenance.promptTokens ?? null,
    completion_tokens: provenance.completionTokens ?? null,
  };
}

export async function storeCharged(statements: GroupCommit, db: Knex, row: ChargedRow): Promise<ChargeOutcome> {
  try {
    return await statements.run(row.accountId, (executor) => runChargingStatement(executor, row));
  } catch (error) {
    const committed = await storedRowOf(db, row).catch(() => null);
    if (committed === null) throw error;
    return { status: 'stored', id: committed };
  }
}

async function runChargingStatement(db: Executor, row: ChargedRow): Promise<ChargeOutcome> {
  const names = Object.keys(row.columns);
  const result = await db.raw(
    `WITH claim AS (
       SELECT 1 FROM idempotency_keys
       WHERE account_id = ? AND key = ? AND owner = ? AND state = 'pending'
       FOR UPDATE
     ), allowed AS (
       SELECT (?::text IS NULL OR EXISTS (SELECT 1 FROM claim)) AS ok
     ), settled AS (
       DELETE FROM credit_holds WHERE id = ? AND account_id = ? AND (SELECT ok FROM allowed)
       RETURNING account_id AS id
     ), charged AS (
       UPDATE accounts SET credits = credits - 1, updated_at = now()
       WHERE id = ? AND credits >= 1 AND (SELECT ok FROM allowed) AND NOT EXISTS (SELECT 1 FROM settled)
       RETURNING id
     ), payer AS (
       SELECT id FROM settled UNION ALL SELECT id FROM charged
     ), stored AS (
       INSERT INTO ?? (account_id, hold_id, ${names.map(() => '??').join(', ')})
       SELECT id, ?, ${names.map(() => '?').join(', ')} FROM payer
       RETURNING id, account_id
     ), ledger AS (
       INSERT INTO credit_ledger (account_id, delta, reason, ??)
       SELECT account_id, -1, ?, id FROM stored
     ), completed AS (
       UPDATE idempotency_keys SET state = 'completed', result_id = stored.id
       FROM stored
       WHERE idempotency_keys.account_id = stored.account_id AND idempotency_keys.key = ? AND idempotency_keys.owner = ?
     )
     SELECT (SELECT id FROM stored) AS id, (SELECT ok FROM allowed) AS claim_held`,
    [
      row.accountId,
      row.claim?.key ?? null,
      row.claim?.owner ?? null,
      row.claim?.key ?? null,
      row.holdId,
      row.accountId,
      row.accountId,
      row.table,
      ...names,
      row.holdId,
      ...Object.values(row.columns),
      row.ledger.column,
      row.ledger.reason,
      row.claim?.key ?? null,
      row.claim?.owner ?? null,
    ],
  );
  const [answer] = result.rows as { id: unknown; claim_held: boolean }[];
  if (answer?.id !== null && answer?.id !== undefined) return { status: 'stored', id: toNumber(answer.id) };
  return answer?.claim_held === false ? { status: 'claim_lost' } : { status: 'no_credit' };
}

/** The id of the row charged from this hold, if its statement committed; null if it did not. */
async function storedRowOf(db: Knex, row: ChargedRow): Promise<number | null> {
  const found = await db(row.table).select('id').where({ hold_id: row.holdId, account_id: row.accountId }).first();
  return found ? toNumber(found.id) : null;
}
