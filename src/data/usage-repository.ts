/** The failed-call usage of accounts (migrations 008, 012): one row per account, added to in one upsert. */
import type { Knex } from 'knex';
import type { UpstreamSpend, UsageRepository } from '../domain/ports';

export class KnexUsageRepository implements UsageRepository {
  constructor(private readonly db: Knex) {}

  async addFailed(accountId: number, spends: readonly UpstreamSpend[]): Promise<void> {
    const sum = (count: (spend: UpstreamSpend) => number): number => spends.reduce((total, spend) => total + count(spend), 0);
    const row = {
      account_id: accountId,
      prompt_tokens: sum((spend) => spend.promptTokens ?? 0),
      completion_tokens: sum((spend) => spend.completionTokens ?? 0),
      calls: spends.length,
      unreported_calls: sum((spend) => (spend.estimated === true || (spend.promptTokens === null && spend.completionTokens === null) ? 1 : 0)),
      estimated_prompt_tokens: sum((spend) => (spend.estimated === true ? (spend.promptTokens ?? 0) : 0)),
    };
    const added = (column: keyof typeof row) => this.db.raw('?? + excluded.??', [`failed_call_usage.${column}`, column]);
    await this.db('failed_call_usage')
      .insert(row)
      .onConflict('account_id')
      .merge({
        prompt_tokens: added('prompt_tokens'),
        completion_tokens: added('completion_tokens'),
        calls: added('calls'),
        unreported_calls: added('unreported_calls'),
        estimated_prompt_tokens: added('estimated_prompt_tokens'),
      });
  }
}
