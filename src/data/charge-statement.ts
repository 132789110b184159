/**
 * The charging statement: for a batch of rows of one table, in one statement (one round
 * trip, one commit), each row's credit hold becomes its charge, the row is stored, the
 * ledger entry written and the call's idempotency claim completed. Read it as named steps
 * (the CTEs below, in order); its parameters are named (`:items`, `:table:`, …).
 *
 * For each row (`ord`, its place in the batch):
 * - with an Idempotency-Key, the claim must still be this call's (`owner`, locked for the
 *   statement): a call that outlived its lease and lost the key stores and charges nothing;
 * - its hold is deleted (that is the charge: its credit left `accounts.credits` when it
 *   was taken). If the sweeper already returned it, its lease having run out, an available
 *   credit is taken instead, under the account's row lock (accounts locked in id order, so
 *   an account pays for at most as many rows as it has credits); with none left, nothing
 *   is stored for it.
 */
import type { Knex } from 'knex';
import { ACCOUNT_ROW_LOCK } from './account-row-lock';
import { onOwnConnection, toNumber } from './database';
import type { ChargeOutcome, ClaimedKey } from '../domain/ports';

export interface ChargedRow {
  accountId: number;
  holdId: number;
  table: 'snaps' | 'comms_analyses';
  /** The row's columns other than account_id and hold_id: JSON columns as values, the others as text or numbers. */
  columns: Record<string, unknown>;
  ledger: { reason: 'snap' | 'comms'; column: 'snap_id' | 'comms_id' };
  claim: ClaimedKey | undefined;
}

const CHARGE_ROWS = `
-- 1. wanted: the batch, one row per request, numbered by its place (ord).
WITH wanted AS (
  SELECT ord, (item->>'accountId')::bigint AS account_id, (item->>'holdId')::bigint AS hold_id,
         item->>'key' AS key, item->>'owner' AS owner, item->'columns' AS columns
  FROM json_array_elements(:items::json) WITH ORDINALITY AS w(item, ord)
),
-- 2. claims: the requests whose Idempotency-Key claim is still theirs (pending, same owner), locked.
claims AS (
  SELECT wanted.ord FROM wanted
  JOIN idempotency_keys ON idempotency_keys.account_id = wanted.account_id AND idempotency_keys.key = wanted.key
    AND idempotency_keys.owner = wanted.owner AND idempotency_keys.state = 'pending'
  ORDER BY idempotency_keys.account_id, idempotency_keys.key
  FOR UPDATE OF idempotency_keys
),
-- 3. allowed: every request, ok when it has no key or still holds its claim.
allowed AS (
  SELECT wanted.*, (wanted.key IS NULL OR wanted.ord IN (SELECT ord FROM claims)) AS ok FROM wanted
),
-- 4. settled: the holds deleted, which is the charge of the requests that still had one.
settled AS (
  DELETE FROM credit_holds USING allowed
  WHERE credit_holds.id = allowed.hold_id AND credit_holds.account_id = allowed.account_id AND allowed.ok
  RETURNING allowed.ord
),
-- 5. unsettled: allowed requests whose hold the sweeper had already returned.
unsettled AS (
  SELECT allowed.* FROM allowed WHERE ok AND ord NOT IN (SELECT ord FROM settled)
),
-- 6. locked: their accounts, locked in id order.
locked AS (
  SELECT id, credits FROM accounts WHERE id IN (SELECT account_id FROM unsettled)
  ORDER BY id ${ACCOUNT_ROW_LOCK}
),
-- 7. charged: of those requests, as many per account as it has credits, in batch order.
charged AS (
  SELECT ord, account_id FROM (
    SELECT unsettled.ord, unsettled.account_id, locked.credits,
           row_number() OVER (PARTITION BY unsettled.account_id ORDER BY unsettled.ord) AS nth
    FROM unsettled JOIN locked ON locked.id = unsettled.account_id
  ) ranked
  WHERE nth <= credits
),
-- 8. debited: their credits taken from the accounts.
debited AS (
  UPDATE accounts SET credits = credits - per_account.n, updated_at = now()
  FROM (SELECT account_id, count(*) AS n FROM charged GROUP BY account_id) per_account
  WHERE accounts.id = per_account.account_id
),
-- 9. numbered: every paid request (settled or charged), given its row's id.
numbered AS (
  SELECT allowed.*, nextval(pg_get_serial_sequence(:tableName, 'id')) AS row_id FROM allowed
  WHERE ord IN (SELECT ord FROM settled UNION ALL SELECT ord FROM charged)
),
-- 10. stored: the rows, their columns read from the request's JSON.
stored AS (
  INSERT INTO :table: (id, account_id, hold_id, :columns:)
  SELECT numbered.row_id, numbered.account_id, numbered.hold_id, :recordColumns:
  FROM numbered, json_populate_record(NULL:::table:, numbered.columns) AS r
),
-- 11. ledger: one debit per row stored, with the model, upstream and tokens of its call, reported or estimated (the usage view).
ledger AS (
  INSERT INTO credit_ledger (account_id, delta, reason, :ledgerColumn:, model, upstream, prompt_tokens, completion_tokens, tokens_estimated)
  SELECT account_id, -1, :reason, row_id, columns->>'model', columns->>'upstream',
         (columns->>'prompt_tokens')::bigint, (columns->>'completion_tokens')::bigint,
         coalesce((columns->>'tokens_estimated')::boolean, false)
  FROM numbered
),
-- 12. completed: the claims of the rows stored, completed with their id and table.
completed AS (
  UPDATE idempotency_keys SET state = 'completed', result_id = numbered.row_id, result_table = :tableName
  FROM numbered
  WHERE idempotency_keys.account_id = numbered.account_id AND idempotency_keys.key = numbered.key AND idempotency_keys.owner = numbered.owner
)
-- Each request: the id of its row (none when not stored), and whether it still held its claim.
SELECT allowed.ord, numbered.row_id AS id, allowed.ok AS claim_held
FROM allowed LEFT JOIN numbered ON numbered.ord = allowed.ord`;

interface Answer {
  ord: unknown;
  id: unknown;
  claim_held: boolean | null;
}

/**
 * One statement for a batch of rows of one table (the first row's): each row's outcome,
 * in order. Rejects with a StatementFailed (database.ts) that names the backend that ran it.
 */
export async function chargeRows(db: Knex, rows: readonly ChargedRow[]): Promise<ChargeOutcome[]> {
  const [first] = rows;
  if (!first) return [];
  const items = rows.map((row) => ({ accountId: row.accountId, holdId: row.holdId, key: row.claim?.key ?? null, owner: row.claim?.owner ?? null, columns: row.columns }));
  const { sql, bind } = statementFor(db, first);
  const result = await onOwnConnection(db, sql, bind({ items: JSON.stringify(items), tableName: first.table, reason: first.ledger.reason }));
  const answers: (Answer | undefined)[] = rows.map(() => undefined);
  for (const answer of result.rows as Answer[]) answers[toNumber(answer.ord) - 1] = answer;
  return answers.map(outcomeOf);
}

/** The parameters bound per batch; the identifiers (table, columns) are put in once per table. */
interface Values {
  items: string;
  tableName: string;
  reason: string;
}

interface Statement {
  sql: string;
  bind: (values: Values) => unknown[];
}

const statements = new WeakMap<Knex, Map<string, Statement>>();

/**
 * CHARGE_ROWS with this row's table and columns in place, compiled by knex once per
 * table and set of columns: per batch, only the three values are bound (knex's parsing
 * of the named parameters costs about 15 µs, as much as the rest of the statement's
 * preparation). The order of the values is the one knex found, not written by hand.
 */
function statementFor(db: Knex, row: ChargedRow): Statement {
  const names = Object.keys(row.columns);
  const shape = `${row.table}(${names.join(',')})`;
  let byShape = statements.get(db);
  if (!byShape) statements.set(db, (byShape = new Map()));
  let statement = byShape.get(shape);
  if (!statement) {
    const marks: Values = { items: '\u0000items', tableName: '\u0000tableName', reason: '\u0000reason' };
    const compiled = db
      .raw(CHARGE_ROWS, { ...marks, table: row.table, columns: names, recordColumns: names.map((name) => `r.${name}`), ledgerColumn: row.ledger.column })
      .toSQL();
    const order = compiled.bindings.map((mark) => String(mark).slice(1) as keyof Values);
    statement = { sql: compiled.sql, bind: (values) => order.map((name) => values[name]) };
    byShape.set(shape, statement);
  }
  return statement;
}

function outcomeOf(answer: Answer | undefined): ChargeOutcome {
  if (answer?.id !== null && answer?.id !== undefined) return { status: 'stored', id: toNumber(answer.id) };
  return answer?.claim_held === false ? { status: 'claim_lost' } : { status: 'no_credit' };
}
