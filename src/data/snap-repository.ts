import type { Knex } from 'knex';
import { toNumber } from './database';
import { provenanceColumns, type ChargingStatements } from './store-charged';
import { subjectDigest } from './subject-digest';
import type { ChargeOutcome, ChargedSnap, SnapRepository, SnapSubject, StoredSnap } from '../domain/ports';

export class KnexSnapRepository implements SnapRepository {
  /**
   * @param charges batches the charging statements of concurrent requests into one statement
   * @param keepRequestTexts keep the notes, job type and age range (KEEP_REQUEST_TEXTS); otherwise only the name, which comms reads again (docs/privacy.md)
   */
  constructor(
    private readonly db: Knex,
    private readonly charges: ChargingStatements,
    private readonly keepRequestTexts = false,
  ) {}

  async storeCharged(snap: ChargedSnap): Promise<ChargeOutcome> {
    return this.charges.store({
      accountId: snap.hold.accountId,
      holdId: snap.hold.holdId,
      table: 'snaps',
      columns: {
        request: this.keepRequestTexts ? snap.subject : minimised(snap.subject),
        prediction: snap.prediction,
        subject_digest: subjectDigest(snap.hold.accountId, snap.subject.name),
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

/** What is kept of the person after the call by default: the name, which a comms analysis and a replay read again. */
function minimised(subject: SnapSubject): Pick<SnapSubject, 'name'> {
  return { name: subject.name };
}
