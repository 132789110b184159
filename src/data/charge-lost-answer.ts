/**
 * What became of a charging statement that failed, when the database's answer does not
 * say. If the database answered with an error, nothing committed: that error stands. If
 * the answer was lost (the connection dropped during the commit), the outcome is looked
 * up by the row's `hold_id` on a fresh connection, not guessed: after ending the
 * PostgreSQL backend that ran the statement (`pg_terminate_backend`, waiting up to 5 s),
 * so a statement still running there cannot commit after the look-up. Behind a pooler in
 * transaction mode the process id is the pooler's and nothing is ended: the outcome the
 * look-up finds may then change after it (docs/decisions.md: the item on one statement per
 * batch).
 */
import type { Knex } from 'knex';
import { StatementFailed, toNumber } from './database';
import { isDatabaseUnavailable } from './unavailable';
import type { ChargedRow } from './charge-statement';
import type { ChargeOutcome } from '../domain/ports';

/** The database answered with an error (a SQLSTATE) and is up: the statement was rolled back. */
export function refusedByDatabase(failure: unknown): boolean {
  const error = failure instanceof StatementFailed ? failure.cause : failure;
  const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
  return /^[0-9A-Z]{5}$/.test(code) && !isDatabaseUnavailable(error);
}

/** The row charged from this hold if its statement committed after all; the statement's error if not. */
export async function outcomeOfFailedCharge(db: Knex, row: ChargedRow, failure: unknown): Promise<ChargeOutcome> {
  // The database answered with an error: nothing committed, and the connection, healthy,
  // is back in the pool serving another request, so its backend must not be ended.
  if (refusedByDatabase(failure)) throw errorOf(failure);
  const backendPid = failure instanceof StatementFailed ? failure.backendPid : undefined;
  const found = await endBackend(db, backendPid)
    .then(() => db(row.table).select('id').where({ hold_id: row.holdId, account_id: row.accountId }).first())
    .catch(() => undefined);
  if (!found) throw errorOf(failure);
  return { status: 'stored', id: toNumber(found.id) };
}

async function endBackend(db: Knex, pid: number | undefined): Promise<void> {
  if (pid !== undefined) await db.raw('SELECT pg_terminate_backend(?, 5000)', [pid]);
}

/** The database's own error when there is one (the outage mapper reads its code), never `undefined`. */
function errorOf(failure: unknown): Error {
  if (failure instanceof StatementFailed) return failure.cause instanceof Error ? failure.cause : failure;
  return failure instanceof Error ? failure : new Error(`the charging statement failed: ${String(failure)}`);
}
