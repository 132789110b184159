import type { Knex } from 'knex';
import { toNumber } from './database';
import { provenanceColumns, type ChargingStatements } from './store-charged';
import { AppError } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';
import type { ChargeOutcome, ChargedComms, CommsRepository, StoredComms } from '../domain/ports';

/** The analysis's snap was deleted (erased or expired) while the analysis was being made. */
function snapGone(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23503' && 'constraint' in error && error.constraint === 'comms_analyses_snap_id_foreign';
}

export class KnexCommsRepository implements CommsRepository {
  /**
   * @param charges batches the charging statements of concurrent requests into one statement
   * @param keepRequestTexts keep the goal and the draft (KEEP_REQUEST_TEXTS); otherwise only the channel: nothing reads them again (docs/privacy.md)
   */
  constructor(
    private readonly db: Knex,
    private readonly charges: ChargingStatements,
    private readonly keepRequestTexts = false,
  ) {}

  /** A snap erased or expired during the call is the contract's 404, as if it had been gone before (nothing stored, nothing charged). */
  async storeCharged(comms: ChargedComms): Promise<ChargeOutcome> {
    try {
      return await this.charges.store({
        accountId: comms.hold.accountId,
        holdId: comms.hold.holdId,
        table: 'comms_analyses',
        columns: {
          snap_id: comms.snapId,
          request: this.keepRequestTexts ? comms.request : { channel: comms.request.channel },
          response: comms.analysis,
          ...provenanceColumns(comms.provenance),
        },
        ledger: { reason: 'comms', column: 'comms_id' },
        claim: comms.claim,
      });
    } catch (error) {
      if (snapGone(error)) throw new AppError({ kind: 'not_found', message: MESSAGES.snapNotFound, cause: error });
      throw error;
    }
  }

  async findOwned(accountId: number, commsId: number): Promise<StoredComms | null> {
    const row = await this.db('comms_analyses')
      .select('id', 'snap_id', 'response')
      .where({ id: commsId, account_id: accountId })
      .first();
    if (!row) return null;
    return { commsId: toNumber(row.id), snapId: toNumber(row.snap_id), analysis: row.response };
  }
}
