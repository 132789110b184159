/**
 * The charging statement shared by snaps and analyses: one statement that turns the
 * request's credit hold into the charge, stores the row, writes the ledger entry and
 * completes the call's idempotency claim, atomically. Requests that arrive together share
 * it: one statement (one round trip, one commit) per batch and table, each request still
 * getting its own outcome.
 *
 * - The hold is deleted (that is the charge: its credit left `accounts.credits` when it
 *   was taken). If the sweeper already returned it, its lease having run out, an
 *   available credit is taken instead, under the account's row lock (accounts locked in
 *   id order, so an account pays for at most as many rows as it has credits); with none
 *   left, nothing is stored for that request.
 * - With an Idempotency-Key, the claim must still be this call's (`owner`, locked for the
 *   statement): a call that outlived its lease and lost the key stores and charges nothing.
 * - If the database refuses the batch's statement (one bad row), nothing of it committed:
 *   each request then runs its own statement, so a bad row fails only its own request.
 * - When a statement's answer is lost (the connection dropped during the commit), the
 *   outcome is looked up by the row's `hold_id` on a fresh connection, not guessed: after
 *   ending the PostgreSQL backend that ran it (`pg_terminate_backend`, waiting up to 5 s),
 *   so a statement still running there cannot commit after the look-up.
 */
import type { Knex } from 'knex';
import { batchedStatement, type BatchOptions } from './batcher';
import { toNumber } from './database';
import { isDatabaseUnavailable } from './unavailable';
import type { ChargeOutcome, ClaimedKey, Provenance } from '../domain/ports';

export interface ChargedRow {
  accountId: number;
  holdId: number;
  table: 'snaps' | 'comms_analyses';
  /** The row's columns other than account_id and hold_id: JSON columns as values, the others as text or numbers. */
  columns: Record<string, unknown>;
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

type Answer = { id: unknown; claim_held: boolean | null } | undefined;

export class ChargingStatements {
  private readonly batches = new Map<ChargedRow['table'], (row: ChargedRow) => Promise<ChargeOutcome>>();

  constructor(
    private readonly db: Knex,
    private readonly batch: BatchOptions = { maxWaitMs: 1, maxBatch: 64 },
  ) {}

  async store(row: ChargedRow): Promise<ChargeOutcome> {
    try {
      return await this.batchOf(row.table)(row);
    } catch (failure) {
      const { error } = failure as FailedStatement;
      if (refusedByDatabase(error)) return this.storeAlone(row);
      return this.lookedUp(row, failure as FailedStatement);
    }
  }

  private batchOf(table: ChargedRow['table']): (row: ChargedRow) => Promise<ChargeOutcome> {
    let run = this.batches.get(table);
    if (!run) {
      run = batchedStatement((rows: ChargedRow[]) => chargeAll(this.db, rows), this.batch);
      this.batches.set(table, run);
    }
    return run;
  }

  /** The batch's statement for this row alone. */
  private async storeAlone(row: ChargedRow): Promise<ChargeOutcome> {
    try {
      const [outcome] = await chargeAll(this.db, [row]);
      return outcome as ChargeOutcome;
    } catch (failure) {
      return this.lookedUp(row, failure as FailedStatement);
    }
  }

  /** The row charged from this hold if its statement committed after all; the statement's error if not. */
  private async lookedUp(row: ChargedRow, failure: FailedStatement): Promise<ChargeOutcome> {
    // The database answered with an error: nothing committed, and the connection, healthy,
    // is back in the pool serving another request, so its backend must not be ended.
    if (refusedByDatabase(failure.error)) throw failure.error;
    const found = await this.endBackend(failure.backendPid)
      .then(() => this.db(row.table).select('id').where({ hold_id: row.holdId, account_id: row.accountId }).first())
      .catch(() => undefined);
    if (!found) throw failure.error;
    return { status: 'stored', id: toNumber(found.id) };
  }

  private async endBackend(pid: number | undefined): Promise<void> {
    if (pid !== undefined) await this.db.raw('SELECT pg_terminate_backend(?, 5000)', [pid]);
  }
}

/** A charging statement's error, and the PostgreSQL backend that ran it (none with PGlite). */
interface FailedStatement {
  error: unknown;
  backendPid: number | undefined;
}

/** The database answered with an error (a SQLSTATE) and is up: the statement was rolled back. */
function refusedByDatabase(error: unknown): boolean {
  const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
  return /^[0-9A-Z]{5}$/.test(code) && !isDatabaseUnavailable(error);
}

function outcomeOf(answer: Answer): ChargeOutcome {
  if (answer?.id !== null && answer?.id !== undefined) return { status: 'stored', id: toNumber(answer.id) };
  return answer?.claim_held === false ? { status: 'claim_lost' } : { status: 'no_credit' };
}

/** One statement for a batch of rows of one table: each row's outcome, in order. */
async function chargeAll(db: Knex, rows: ChargedRow[]): Promise<ChargeOutcome[]> {
  const connection = (await db.client.acquireConnection().catch((error: unknown) => Promise.reject(failed(error, undefined)))) as { processID?: number };
  try {
    return await chargeAllOn(db, connection, rows);
  } catch (error) {
    throw failed(error, connection.processID);
  } finally {
    await db.client.releaseConnection(connection);
  }
}

function failed(error: unknown, backendPid: number | undefined): FailedStatement {
  return { error, backendPid };
}

async function chargeAllOn(db: Knex, connection: unknown, rows: ChargedRow[]): Promise<ChargeOutcome[]> {
  const first = rows[0] as ChargedRow;
  const names = Object.keys(first.columns);
  const items = rows.map((row) => ({ accountId: row.accountId, holdId: row.holdId, key: row.claim?.key ?? null, owner: row.claim?.owner ?? null, columns: row.columns }));
  const result = await db.raw(
    `WITH wanted AS (
       SELECT ord, (item->>'accountId')::bigint AS account_id, (item->>'holdId')::bigint AS hold_id,
              item->>'key' AS key, item->>'owner' AS owner, item->'columns' AS columns
       FROM json_array_elements(?::json) WITH ORDINALITY AS w(item, ord)
     ), claims AS (
       SELECT wanted.ord FROM wanted
       JOIN idempotency_keys ON idempotency_keys.account_id = wanted.account_id AND idempotency_keys.key = wanted.key
         AND idempotency_keys.owner = wanted.owner AND idempotency_keys.state = 'pending'
       ORDER BY idempotency_keys.account_id, idempotency_keys.key
       FOR UPDATE OF idempotency_keys
     ), allowed AS (
       SELECT wanted.*, (wanted.key IS NULL OR wanted.ord IN (SELECT ord FROM claims)) AS ok FROM wanted
     ), settled AS (
       DELETE FROM credit_holds USING allowed
       WHERE credit_holds.id = allowed.hold_id AND credit_holds.account_id = allowed.account_id AND allowed.ok
       RETURNING allowed.ord
     ), unsettled AS (
       SELECT allowed.* FROM allowed WHERE ok AND ord NOT IN (SELECT ord FROM settled)
     ), locked AS (
       SELECT id, credits FROM accounts WHERE id IN (SELECT account_id FROM unsettled)
       ORDER BY id FOR UPDATE
     ), charged AS (
       SELECT ord, account_id FROM (
         SELECT unsettled.ord, unsettled.account_id, locked.credits,
                row_number() OVER (PARTITION BY unsettled.account_id ORDER BY unsettled.ord) AS nth
         FROM unsettled JOIN locked ON locked.id = unsettled.account_id
       ) ranked
       WHERE nth <= credits
     ), debited AS (
       UPDATE accounts SET credits = credits - per_account.n, updated_at = now()
       FROM (SELECT account_id, count(*) AS n FROM charged GROUP BY account_id) per_account
       WHERE accounts.id = per_account.account_id
     ), numbered AS (
       SELECT allowed.*, nextval(pg_get_serial_sequence(?, 'id')) AS row_id FROM allowed
       WHERE ord IN (SELECT ord FROM settled UNION ALL SELECT ord FROM charged)
     ), stored AS (
       INSERT INTO ?? (id, account_id, hold_id, ${names.map(() => '??').join(', ')})
       SELECT numbered.row_id, numbered.account_id, numbered.hold_id, ${names.map(() => 'r.??').join(', ')}
       FROM numbered, json_populate_record(NULL::??, numbered.columns) AS r
     ), ledger AS (
       INSERT INTO credit_ledger (account_id, delta, reason, ??)
       SELECT account_id, -1, ?, row_id FROM numbered
     ), completed AS (
       UPDATE idempotency_keys SET state = 'completed', result_id = numbered.row_id
       FROM numbered
       WHERE idempotency_keys.account_id = numbered.account_id AND idempotency_keys.key = numbered.key AND idempotency_keys.owner = numbered.owner
     )
     SELECT allowed.ord, numbered.row_id AS id, allowed.ok AS claim_held
     FROM allowed LEFT JOIN numbered ON numbered.ord = allowed.ord`,
    [JSON.stringify(items), first.table, first.table, ...names, ...names, first.table, first.ledger.column, first.ledger.reason],
  ).connection(connection);
  const answers: Answer[] = rows.map(() => undefined);
  for (const row of result.rows as { ord: unknown; id: unknown; claim_held: boolean }[]) answers[toNumber(row.ord) - 1] = row;
  return answers.map(outcomeOf);
}
