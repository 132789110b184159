import type { Knex } from 'knex';
import { toNumber } from './database';
import type { Caller, CallerRepository } from '../domain/ports';

export class KnexCallerRepository implements CallerRepository {
  constructor(private readonly db: Knex) {}

  async findByKeyHash(keyHash: string): Promise<Caller | null> {
    const row = await this.db('api_keys')
      .select('id', 'account_id')
      .where({ key_hash: keyHash, active: true })
      .first();
    return row ? { accountId: toNumber(row.account_id), keyId: toNumber(row.id) } : null;
  }
}
