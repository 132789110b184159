import type { Knex } from 'knex';
import { toNumber } from './database';
import type { Caller, CallerRepository } from '../domain/ports';
import type { DeactivatedKeys } from './cached-caller-repository';

export class KnexCallerRepository implements CallerRepository, DeactivatedKeys {
  constructor(private readonly db: Knex) {}

  async findByKeyHash(keyHash: string): Promise<Caller | null> {
    const row = await this.db('api_keys')
      .select('id', 'account_id')
      .where({ key_hash: keyHash, active: true })
      .first();
    return row ? { accountId: toNumber(row.account_id), keyId: toNumber(row.id) } : null;
  }

  /** A scan of api_keys by `deactivated_at` (the table holds one row per key ever issued). */
  async deactivatedWithin(withinSeconds: number): Promise<string[]> {
    const rows: { key_hash: string }[] = await this.db('api_keys')
      .select('key_hash')
      .where('deactivated_at', '>', this.db.raw('now() - make_interval(secs => ?)', [withinSeconds]));
    return rows.map((row) => row.key_hash);
  }
}
