import type { Knex } from 'knex';
import { chargeOneCredit } from './charge';
import { toNumber } from './database';
import { completeIdempotencyKey } from './idempotency-repository';
import type { ChargedSnap, SnapRepository, StoredSnap } from '../domain/ports';

export class KnexSnapRepository implements SnapRepository {
  constructor(private readonly db: Knex) {}

  async storeCharged(snap: ChargedSnap): Promise<{ snapId: number } | null> {
    return this.db.transaction(async (trx) => {
      if (!(await chargeOneCredit(trx, snap.accountId))) return null;
      const [row] = await trx('snaps')
        .insert({
          account_id: snap.accountId,
          request: JSON.stringify(snap.subject),
          prediction: JSON.stringify(snap.prediction),
          predictor: snap.provenance.predictor,
          model: snap.provenance.model,
          prompt_version: snap.provenance.promptVersion,
        })
        .returning('id');
      const snapId = toNumber(row.id);
      await trx('credit_ledger').insert({ account_id: snap.accountId, delta: -1, reason: 'snap', snap_id: snapId });
      if (snap.idempotency) await completeIdempotencyKey(trx, snap.accountId, snap.idempotency, snapId);
      return { snapId };
    });
  }

  async findOwned(accountId: number, snapId: number): Promise<StoredSnap | null> {
    const row = await this.db('snaps')
      .select('id', 'account_id', 'request', 'prediction')
      .where({ id: snapId, account_id: accountId })
      .first();
    if (!row) return null;
    return { snapId: toNumber(row.id), accountId: toNumber(row.account_id), subject: row.request, prediction: row.prediction };
  }
}
