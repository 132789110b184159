import type { Knex } from 'knex';
import { toNumber } from './database';
import type { ClaimedKey, IdempotencyClaim, IdempotencyRepository } from '../domain/ports';

const KEEP_HOURS = 24;

export class KnexIdempotencyRepository implements IdempotencyRepository {
  /**
   * @param leaseSeconds how long a `pending` claim is honoured: longer than any call can
   * run, so only the claim of a call that died (a crash) is ever taken over.
   */
  constructor(
    private readonly db: Knex,
    private readonly leaseSeconds: number,
  ) {}

  async claim(accountId: number, { key, owner }: ClaimedKey, fingerprint: string): Promise<IdempotencyClaim> {
    // A free, expired or abandoned key is claimed by the insert (or its update); a key
    // held by a live or finished call is left alone and read back below. Two tries
    // cover the row being released between the two statements.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const claimed = await this.db.raw(
        `INSERT INTO idempotency_keys (account_id, key, fingerprint, owner, state, locked_at, expires_at)
         VALUES (?, ?, ?, ?, 'pending', now(), now() + make_interval(hours => ?))
         ON CONFLICT (account_id, key) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, owner = EXCLUDED.owner, state = 'pending', result_id = NULL,
               locked_at = EXCLUDED.locked_at, expires_at = EXCLUDED.expires_at
           WHERE idempotency_keys.expires_at < now()
              OR (idempotency_keys.state = 'pending' AND idempotency_keys.locked_at < now() - make_interval(secs => ?))
         RETURNING 1`,
        [accountId, key, fingerprint, owner, KEEP_HOURS, this.leaseSeconds],
      );
      if (claimed.rows.length > 0) return { status: 'claimed' };
      const held = await this.db('idempotency_keys').select('fingerprint', 'state', 'result_id').where({ account_id: accountId, key }).first();
      if (held?.state === 'completed') return { status: 'completed', fingerprint: held.fingerprint, resultId: toNumber(held.result_id) };
      if (held) return { status: 'pending', fingerprint: held.fingerprint };
    }
    return { status: 'pending', fingerprint };
  }

  async release(accountId: number, { key, owner }: ClaimedKey): Promise<void> {
    await this.db('idempotency_keys').where({ account_id: accountId, key, owner, state: 'pending' }).delete();
  }
}
