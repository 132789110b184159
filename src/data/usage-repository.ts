/**
 * What of a paid call stored no result, in one statement: its upstream calls added to the
 * account's failed-call usage (migrations 008, 012, 014: one row per account) and, per model, to
 * its usage tallies of this hour (migration 013), with the call itself counted by its kind.
 */
import type { Knex } from 'knex';
import { reportedByUpstream, type FailedSpend, type UpstreamSpend, type UsageRepository } from '../domain/ports';

const UNKNOWN_MODEL = '';

const sum = (spends: readonly UpstreamSpend[], count: (spend: UpstreamSpend) => number): number => spends.reduce((total, spend) => total + count(spend), 0);
/** A call with neither the upstream's count nor an estimate (the usage tallies' `unreported_calls`). */
const uncounted = (spend: UpstreamSpend): boolean => spend.estimated !== true && spend.promptTokens === null && spend.completionTokens === null;

export class KnexUsageRepository implements UsageRepository {
  constructor(private readonly db: Knex) {}

  async addFailed(accountId: number, failed: FailedSpend): Promise<void> {
    const { spends } = failed;
    const statement = spends.length > 0 ? this.db.with('failed_usage', this.failedUsage(accountId, spends)) : this.db.queryBuilder();
    await statement
      .into('usage_tallies')
      .insert(this.tallyRows(accountId, failed))
      .onConflict(['account_id', 'hour', 'operation', 'outcome', 'model'])
      .merge(this.added('usage_tallies', TALLY_COUNTS));
  }

  private failedUsage(accountId: number, spends: readonly UpstreamSpend[]): Knex.QueryBuilder {
    const usage = {
      account_id: accountId,
      prompt_tokens: sum(spends, (spend) => spend.promptTokens ?? 0),
      completion_tokens: sum(spends, (spend) => spend.completionTokens ?? 0),
      calls: spends.length,
      unreported_calls: spends.filter((spend) => !reportedByUpstream(spend)).length,
      estimated_prompt_tokens: sum(spends, (spend) => (spend.estimated === true ? (spend.promptTokens ?? 0) : 0)),
      estimated_completion_tokens: sum(spends, (spend) => (spend.estimated === true ? (spend.completionTokens ?? 0) : 0)),
    };
    return this.db('failed_call_usage').insert(usage).onConflict('account_id').merge(this.added('failed_call_usage', FAILED_USAGE_COUNTS));
  }

  /** Per model of its upstream calls, one row; the call itself (when it failed) on the row of the model it asked last. */
  private tallyRows(accountId: number, { operation, kind, spends }: FailedSpend): Record<string, unknown>[] {
    const models = [...new Set(spends.map((spend) => spend.model))];
    const lastModel = spends.at(-1)?.model ?? UNKNOWN_MODEL;
    if (kind !== null && !models.includes(lastModel)) models.push(lastModel);
    const hour = this.db.raw("date_trunc('hour', now(), 'UTC')");
    return models.sort().map((model) => {
      const of = spends.filter((spend) => spend.model === model);
      const reported = of.filter((spend) => spend.estimated !== true);
      const estimated = of.filter((spend) => spend.estimated === true);
      return {
        account_id: accountId,
        hour,
        operation,
        outcome: kind ?? 'success',
        model,
        calls: kind !== null && model === lastModel ? 1 : 0,
        upstream_calls: of.length,
        prompt_tokens: sum(reported, (spend) => spend.promptTokens ?? 0),
        completion_tokens: sum(reported, (spend) => spend.completionTokens ?? 0),
        estimated_prompt_tokens: sum(estimated, (spend) => spend.promptTokens ?? 0),
        estimated_completion_tokens: sum(estimated, (spend) => spend.completionTokens ?? 0),
        unreported_calls: of.filter(uncounted).length,
      };
    });
  }

  /** Each count plus the one the insert would have written. */
  private added(table: string, columns: readonly string[]): Record<string, Knex.Raw> {
    return Object.fromEntries(columns.map((column) => [column, this.db.raw('?? + excluded.??', [`${table}.${column}`, column])]));
  }
}

const FAILED_USAGE_COUNTS = ['prompt_tokens', 'completion_tokens', 'calls', 'unreported_calls', 'estimated_prompt_tokens', 'estimated_completion_tokens'];
/** The counts of a usage tally (migration 013), as written here and read by usage-report-repository.ts. */
export const TALLY_COUNTS = ['calls', 'upstream_calls', 'prompt_tokens', 'completion_tokens', 'estimated_prompt_tokens', 'estimated_completion_tokens', 'unreported_calls'];
