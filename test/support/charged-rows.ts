/** A snap row to charge against `hold`, as the snap route stores it (the charging statement's input). */
import type { ChargedRow } from '../../src/data/store-charged';
import type { CreditHold } from '../../src/domain/ports';

export function snapRow(hold: CreditHold, name = 'Ada'): ChargedRow {
  return {
    accountId: hold.accountId,
    holdId: hold.holdId,
    table: 'snaps',
    columns: { request: { name }, prediction: { primary: 'Analyst' }, predictor: 'embedded', model: 'test', prompt_version: 'v1' },
    ledger: { reason: 'snap', column: 'snap_id' },
    claim: undefined,
  };
}
