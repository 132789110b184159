import type { Knex } from 'knex';
import { toNumber } from './database';
import { provenanceColumns, type ChargingStatements } from './store-charged';
import type { ChargeOutcome, ChargedSnap, SnapRepository, StoredSnap } from '../domain/ports';

export class KnexSnapRepository implements SnapRepository {
  /** @param charges batches the charging statements of concurrent requests into one statement */
  constructor(
    private readonly db: Knex,
    private readonly charges: ChargingStatements,
  ) {}

  async storeCharged(snap: ChargedSnap): Promise<ChargeOutcome> {
    return this.charges.store({
      accountId: snap.hold.accountId,
      holdId: snap.hold.holdId,
      table: 'snaps',
      columns: {
        request: snap.subject,
        prediction: snap.prediction,
        ...provenanceColumns(snap.provenance),
      },
      ledger: { reason: 'snap', column: 'snap_id' },
      claim: snap.claim,
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
