import type { Knex } from 'knex';
import { chargeOneCredit } from './charge';
import { toNumber } from './database';
import { completeIdempotencyKey } from './idempotency-repository';
import type { ChargedComms, CommsRepository } from '../domain/ports';

export class KnexCommsRepository implements CommsRepository {
  constructor(private readonly db: Knex) {}

  async storeCharged(comms: ChargedComms): Promise<{ commsId: number } | null> {
    return this.db.transaction(async (trx) => {
      if (!(await chargeOneCredit(trx, comms.accountId))) return null;
      const [row] = await trx('comms_analyses')
        .insert({
          account_id: comms.accountId,
          snap_id: comms.snapId,
          request: JSON.stringify(comms.request),
          response: JSON.stringify(comms.analysis),
          predictor: comms.provenance.predictor,
          model: comms.provenance.model,
          prompt_version: comms.provenance.promptVersion,
        })
        .returning('id');
      const commsId = toNumber(row.id);
      await trx('credit_ledger').insert({ account_id: comms.accountId, delta: -1, reason: 'comms', comms_id: commsId });
      if (comms.idempotency) await completeIdempotencyKey(trx, comms.accountId, comms.idempotency, commsId);
      return { commsId };
    });
  }
}
