import type { Knex } from 'knex';

/**
 * Takes one credit from the account inside `trx`. False, changing nothing, when the
 * balance is zero. The row lock makes concurrent charges of one account queue up, and
 * the re-checked `credits >= 1` stops them at zero.
 */
export async function chargeOneCredit(trx: Knex.Transaction, accountId: number): Promise<boolean> {
  const charged = await trx('accounts')
    .where({ id: accountId })
    .andWhere('credits', '>=', 1)
    .update({ credits: trx.raw('credits - 1'), updated_at: trx.fn.now() })
    .returning('id');
  return charged.length === 1;
}
