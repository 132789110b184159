import type { Knex } from 'knex';
import { toNumber } from './database';
import type { AccountRepository, AccountSummary, FailedCallUsage } from '../domain/ports';

export class KnexAccountRepository implements AccountRepository {
  /**
   * @param forgetKey lets a key cache of this process forget a key (by its hash) at once:
   * when it is deactivated, or when its account's rate limit changes.
   */
  constructor(
    private readonly db: Knex,
    private readonly forgetKey: (keyHash: string) => void = () => undefined,
  ) {}

  async rateLimitOf(accountId: number): Promise<number | null | undefined> {
    const row = await this.db('accounts').select('rate_limit').where({ id: accountId }).first();
    if (!row) return undefined;
    return row.rate_limit === null ? null : toNumber(row.rate_limit);
  }

  async setRateLimit(accountId: number, limit: number | null): Promise<boolean> {
    const updated = await this.db('accounts').update({ rate_limit: limit }).where({ id: accountId });
    if (updated === 0) return false;
    const keys: { key_hash: string }[] = await this.db('api_keys').select('key_hash').where({ account_id: accountId });
    for (const key of keys) this.forgetKey(key.key_hash);
    return true;
  }

  async create(input: { name: string; credits: number; keyHash: string; keyPrefix: string }): Promise<{ accountId: number; keyId: number }> {
    return this.db.transaction(async (trx) => {
      const [account] = await trx('accounts').insert({ name: input.name, credits: input.credits }).returning('id');
      const accountId = toNumber(account.id);
      if (input.credits > 0) {
        await trx('credit_ledger').insert({ account_id: accountId, delta: input.credits, reason: 'grant' });
      }
      const [key] = await trx('api_keys')
        .insert({ account_id: accountId, key_hash: input.keyHash, prefix: input.keyPrefix })
        .returning('id');
      return { accountId, keyId: toNumber(key.id) };
    });
  }

  async find(accountId: number): Promise<AccountSummary | null> {
    const held = this.db('credit_holds').count('*').where({ account_id: accountId }).as('held');
    const account = await this.db('accounts').select('id', 'name', 'credits', held).where({ id: accountId }).first();
    if (!account) return null;
    const keys = await this.db('api_keys').select('id', 'prefix', 'active').where({ account_id: accountId }).orderBy('id');
    return {
      accountId: toNumber(account.id),
      name: account.name,
      credits: toNumber(account.credits),
      held: toNumber(account.held),
      tokens: { ...(await this.tokensOf(accountId)), failed: await this.failedOf(accountId) },
      keys: keys.map((k) => ({ keyId: toNumber(k.id), prefix: k.prefix, active: k.active })),
    };
  }

  /** Prompt and completion tokens of the account's snaps and analyses, and of them the estimated (migration 015; nulls count nothing). */
  private async tokensOf(accountId: number): Promise<Omit<AccountSummary['tokens'], 'failed'>> {
    const used = (table: string) => this.db(table).where({ account_id: accountId }).select('prompt_tokens', 'completion_tokens', 'tokens_estimated');
    const { rows } = await this.db.raw(
      'select coalesce(sum(prompt_tokens), 0) as prompt, coalesce(sum(completion_tokens), 0) as completion, ' +
        'coalesce(sum(prompt_tokens) FILTER (WHERE tokens_estimated), 0) as estimated_prompt, coalesce(sum(completion_tokens) FILTER (WHERE tokens_estimated), 0) as estimated_completion ' +
        'from (? union all ?) as used',
      [used('snaps'), used('comms_analyses')],
    );
    const [row] = rows as Record<string, unknown>[];
    return {
      prompt: toNumber(row?.prompt ?? 0),
      completion: toNumber(row?.completion ?? 0),
      estimatedPrompt: toNumber(row?.estimated_prompt ?? 0),
      estimatedCompletion: toNumber(row?.estimated_completion ?? 0),
    };
  }

  /** The account's calls that stored no result (migrations 008, 012, 014); none yet: zeros. */
  private async failedOf(accountId: number): Promise<FailedCallUsage> {
    const row = await this.db('failed_call_usage').where({ account_id: accountId }).first();
    return {
      prompt: toNumber(row?.prompt_tokens ?? 0),
      completion: toNumber(row?.completion_tokens ?? 0),
      calls: toNumber(row?.calls ?? 0),
      unreportedCalls: toNumber(row?.unreported_calls ?? 0),
      estimatedPrompt: toNumber(row?.estimated_prompt_tokens ?? 0),
      estimatedCompletion: toNumber(row?.estimated_completion_tokens ?? 0),
    };
  }

  async addCredits(accountId: number, amount: number): Promise<number | null> {
    return this.db.transaction(async (trx) => {
      const [row] = await trx('accounts')
        .where({ id: accountId })
        .update({ credits: trx.raw('credits + ?', [amount]), updated_at: trx.fn.now() })
        .returning('credits');
      if (!row) return null;
      await trx('credit_ledger').insert({ account_id: accountId, delta: amount, reason: 'grant' });
      return toNumber(row.credits);
    });
  }

  async addKey(accountId: number, keyHash: string, keyPrefix: string): Promise<number | null> {
    const exists = await this.db('accounts').select('id').where({ id: accountId }).first();
    if (!exists) return null;
    const [key] = await this.db('api_keys').insert({ account_id: accountId, key_hash: keyHash, prefix: keyPrefix }).returning('id');
    return toNumber(key.id);
  }

  async deactivateKey(keyId: number): Promise<boolean> {
    const rows = await this.db('api_keys')
      .where({ id: keyId })
      .update({ active: false, deactivated_at: this.db.raw('coalesce(deactivated_at, now())') })
      .returning('key_hash');
    if (rows.length === 1) this.forgetKey(String(rows[0].key_hash));
    return rows.length === 1;
  }

  async count(): Promise<number> {
    const row = await this.db('accounts').count<{ count: string | number }[]>({ count: '*' }).first();
    return row ? toNumber(row.count) : 0;
  }
}
