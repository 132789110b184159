/**
 * Credit holds in the database (docs/credit-holds.md). Taking a hold moves one credit
 * out of `accounts.credits` into a `credit_holds` row, under the account's row lock, so
 * concurrent requests can never hold more credits than the account has.
 *
 * Requests that arrive together share one statement (and so one round trip and one
 * commit): the holds of a batch are taken by one statement, and so are its releases.
 * Neither commit waits for the disk (reservation-commit.ts).
 * The statement locks the batch's accounts in id order first (`ORDER BY id FOR NO KEY
 * UPDATE`, see ACCOUNT_ROW_LOCK), which also gives it their latest balances; an account
 * asked for more holds than it has credits gets exactly as many as it has, the earliest
 * requests first.
 */
import type { Knex } from 'knex';
import type { BatchOptions } from './batcher';
import { batchedStatement } from './batcher';
import { ACCOUNT_ROW_LOCK } from './account-row-lock';
import { RESERVATION_COMMIT } from './reservation-commit';
import { onOwnConnection, toNumber } from './database';
import type { CreditHold, CreditsRepository } from '../domain/ports';

interface HoldWanted {
  accountId: number;
  operation: string;
}

const BATCH: BatchOptions = { maxWaitMs: 0, maxBatch: 64 };

export class KnexCreditHoldRepository implements CreditsRepository {
  private readonly holdOne: (wanted: HoldWanted) => Promise<number | null>;
  private readonly releaseOne: (hold: CreditHold) => Promise<void>;

  /**
   * @param leaseSeconds how long a hold is kept for its call: longer than any call can run,
   * so only the hold of a process that died is ever returned by the sweeper.
   */
  constructor(
    private readonly db: Knex,
    private readonly leaseSeconds: number,
    batch: BatchOptions = BATCH,
  ) {
    this.holdOne = batchedStatement((wanted) => this.holdAll(wanted), batch);
    this.releaseOne = batchedStatement((holds) => this.releaseAll(holds), batch);
  }

  async hold(accountId: number, operation: string): Promise<CreditHold | null> {
    const holdId = await this.holdOne({ accountId, operation });
    return holdId === null ? null : { holdId, accountId };
  }

  release(hold: CreditHold): Promise<void> {
    return this.releaseOne(hold);
  }

  /** One statement for the batch: each request's hold id, or null where its account had no credit left for it. */
  /** Credits held by calls in flight, on every instance (the `credit_holds_active` gauge). */
  async countActive(): Promise<number> {
    const row = await this.db('credit_holds').count<{ n: unknown }[]>({ n: '*' }).first();
    return toNumber(row?.n ?? 0);
  }

  private async holdAll(wanted: HoldWanted[]): Promise<Array<number | null>> {
    const result = await onOwnConnection(
      this.db,
      `WITH ${RESERVATION_COMMIT}, wanted AS (
         SELECT ord, (item->>'accountId')::bigint AS account_id, item->>'operation' AS operation
         FROM json_array_elements(?::json) WITH ORDINALITY AS w(item, ord)
       ), locked AS (
         SELECT id, credits FROM accounts WHERE id IN (SELECT account_id FROM wanted)
         ORDER BY id ${ACCOUNT_ROW_LOCK}
       ), granted AS (
         SELECT ord, account_id, operation, nextval(pg_get_serial_sequence('credit_holds', 'id')) AS hold_id
         FROM (
           SELECT wanted.*, locked.credits, row_number() OVER (PARTITION BY wanted.account_id ORDER BY wanted.ord) AS nth
           FROM wanted JOIN locked ON locked.id = wanted.account_id
         ) ranked
         WHERE nth <= credits
       ), per_account AS (
         SELECT account_id, count(*) AS n FROM granted GROUP BY account_id
       ), taken AS (
         UPDATE accounts SET credits = credits - per_account.n, updated_at = now()
         FROM per_account WHERE accounts.id = per_account.account_id
       ), held AS (
         INSERT INTO credit_holds (id, account_id, operation, expires_at)
         SELECT hold_id, account_id, operation, now() + make_interval(secs => ?) FROM granted
       )
       SELECT ord, hold_id FROM granted CROSS JOIN reservation_commit`,
      [JSON.stringify(wanted), this.leaseSeconds],
    );
    const holdIds: Array<number | null> = wanted.map(() => null);
    for (const row of result.rows as { ord: unknown; hold_id: unknown }[]) holdIds[toNumber(row.ord) - 1] = toNumber(row.hold_id);
    return holdIds;
  }

  /** One statement for the batch: deletes the holds still there and gives their credits back, accounts locked in id order. */
  private async releaseAll(holds: CreditHold[]): Promise<void[]> {
    await onOwnConnection(
      this.db,
      `WITH ${RESERVATION_COMMIT}, wanted AS (
         SELECT (item->>'holdId')::bigint AS hold_id, (item->>'accountId')::bigint AS account_id
         FROM json_array_elements(?::json) AS w(item)
       ), released AS (
         DELETE FROM credit_holds USING wanted
         WHERE credit_holds.id = wanted.hold_id AND credit_holds.account_id = wanted.account_id
         RETURNING credit_holds.account_id
       ), per_account AS (
         SELECT account_id, count(*) AS n FROM released GROUP BY account_id
       ), locked AS (
         SELECT accounts.id, per_account.n FROM accounts JOIN per_account ON per_account.account_id = accounts.id
         ORDER BY accounts.id ${ACCOUNT_ROW_LOCK} OF accounts
       )
       UPDATE accounts SET credits = credits + locked.n, updated_at = now()
       FROM locked CROSS JOIN reservation_commit WHERE accounts.id = locked.id`,
      [JSON.stringify(holds.map(({ holdId, accountId }) => ({ holdId, accountId })))],
    );
    return holds.map(() => undefined);
  }
}
