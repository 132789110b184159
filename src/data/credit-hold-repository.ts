/**
 * Credit holds in the database (DESIGN.md, "Credits"). Taking a hold moves one credit
 * out of `accounts.credits` into a `credit_holds` row in one statement, under the
 * account's row lock, so concurrent requests can never hold more credits than the account
 * has. Both statements go through the group commit, sharing commits with the charging
 * statements of concurrent requests.
 */
import { toNumber } from './database';
import type { GroupCommit } from './group-commit';
import type { CreditHold, CreditsRepository } from '../domain/ports';

export class KnexCreditHoldRepository implements CreditsRepository {
  /**
   * @param leaseSeconds how long a hold is kept for its call: longer than any call can run,
   * so only the hold of a process that died is ever returned by the sweeper.
   */
  constructor(
    private readonly statements: GroupCommit,
    private readonly leaseSeconds: number,
  ) {}

  async hold(accountId: number, operation: string): Promise<CreditHold | null> {
    const holdId = await this.statements.run(accountId, async (db) => {
      const result = await db.raw(
        `WITH taken AS (
           UPDATE accounts SET credits = credits - 1, updated_at = now()
           WHERE id = ? AND credits >= 1
           RETURNING id
         )
         INSERT INTO credit_holds (account_id, operation, expires_at)
         SELECT id, ?, now() + make_interval(secs => ?) FROM taken
         RETURNING id`,
        [accountId, operation, this.leaseSeconds],
      );
      const [row] = result.rows as { id: unknown }[];
      return row ? toNumber(row.id) : null;
    });
    return holdId === null ? null : { holdId, accountId };
  }

  async release(hold: CreditHold): Promise<void> {
    await this.statements.run(hold.accountId, (db) =>
      db.raw(
        `WITH released AS (
           DELETE FROM credit_holds WHERE id = ? AND account_id = ?
           RETURNING account_id
         )
         UPDATE accounts SET credits = credits + 1, updated_at = now()
         FROM released WHERE accounts.id = released.account_id`,
        [hold.holdId, hold.accountId],
      ),
    );
  }
}
