/**
 * Stores a paid row through the charging statement (charge-statement.ts): the request's
 * credit hold becomes the charge, the row is stored, the ledger written and the
 * idempotency claim completed, atomically. Requests that arrive together share one
 * statement (one round trip, one commit) per batch and table, each still getting its own
 * outcome (batcher.ts).
 *
 * - If the database refuses the batch's statement (one bad row), nothing of it
 *   committed: each request then runs its own statement, so a bad row fails only its own.
 * - If the answer is lost, the outcome is looked up, not guessed (charge-lost-answer.ts).
 */
import type { Knex } from 'knex';
import { batchedStatement, type BatchOptions } from './batcher';
import { outcomeOfFailedCharge, refusedByDatabase } from './charge-lost-answer';
import { chargeRows, type ChargedRow } from './charge-statement';
import type { ChargeOutcome, Provenance } from '../domain/ports';

export type { ChargedRow };

/** Which predictor, model, prompt and upstream produced a row, and the tokens it used. */
export function provenanceColumns(provenance: Provenance): ChargedRow['columns'] {
  return {
    predictor: provenance.predictor,
    model: provenance.model,
    prompt_version: provenance.promptVersion,
    upstream: provenance.upstream ?? null,
    prompt_tokens: provenance.promptTokens ?? null,
    completion_tokens: provenance.completionTokens ?? null,
    tokens_estimated: provenance.tokensEstimated === true,
  };
}

export class ChargingStatements {
  private readonly batches = new Map<ChargedRow['table'], (row: ChargedRow) => Promise<ChargeOutcome>>();

  constructor(
    private readonly db: Knex,
    private readonly batch: BatchOptions = { maxWaitMs: 0, maxBatch: 64 },
  ) {}

  async store(row: ChargedRow): Promise<ChargeOutcome> {
    try {
      return await this.batchOf(row.table)(row);
    } catch (failure) {
      if (refusedByDatabase(failure)) return this.storeAlone(row);
      return outcomeOfFailedCharge(this.db, row, failure);
    }
  }

  private batchOf(table: ChargedRow['table']): (row: ChargedRow) => Promise<ChargeOutcome> {
    let run = this.batches.get(table);
    if (!run) {
      run = batchedStatement((rows: ChargedRow[]) => chargeRows(this.db, rows), this.batch);
      this.batches.set(table, run);
    }
    return run;
  }

  /** The batch's statement for this row alone. */
  private async storeAlone(row: ChargedRow): Promise<ChargeOutcome> {
    try {
      const [outcome] = await chargeRows(this.db, [row]);
      if (!outcome) throw new Error('the charging statement answered no outcome for its row');
      return outcome;
    } catch (failure) {
      return outcomeOfFailedCharge(this.db, row, failure);
    }
  }
}
