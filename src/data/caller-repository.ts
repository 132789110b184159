import type { Knex } from 'knex';
import { toNumber } from './database';
import type { Caller, CallerRepository } from '../domain/ports';
import type { DeactivatedKeys } from './cached-caller-repository';

export class KnexCallerRepository implements CallerRepository, DeactivatedKeys {
  constructor(private readonly db: Knex) {}

  async findByKeyHash(keyHash: string): Promise<Caller | null> {
    const row = await this.db('api_keys')
      .join('accounts', 'accounts.id', 'api_keys.account_id')
      .select('api_keys.id', 'api_keys.account_id', 'accounts.rate_limit')
      .where({ 'api_keys.key_hash': keyHash, 'api_keys.active': true })
      .first();
    return row ? { accountId: toNumber(row.account_id), keyId: toNumber(row.id), rateLimit: row.rate_limit === null ? null : toNumber(row.rate_limit) } : null;
  }

  /** A scan of api_keys by `deactivated_at` (the table holds one row per key ever issued). */
  async deactivatedWithin(withinSeconds: number): Promise<string[]> {
    const rows: { key_hash: string }[] = await this.db('api_keys')
      .select('key_hash')
      .where('deactivated_at', '>', this.db.raw('now() - make_interval(secs => ?)', [withinSeconds]));
    return rows.map((row) => row.key_hash);
  }
}
