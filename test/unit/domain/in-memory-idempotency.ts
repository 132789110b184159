/** An in-memory IdempotencyRepository for domain tests (the port, not a mock of our modules). */
import type { ClaimedKey, IdempotencyClaim, IdempotencyRepository } from '../../../src/domain/ports';

interface Row {
  fingerprint: string;
  owner: string;
  state: 'pending' | 'completed';
  resultId?: number;
}

export class InMemoryIdempotency implements IdempotencyRepository {
  readonly rows = new Map<string, Row>();
  /** Owners whose call is over, in the order they ended. */
  readonly endedOwners: string[] = [];

  async claim(accountId: number, { key, owner }: ClaimedKey, fingerprint: string): Promise<IdempotencyClaim> {
    const row = this.rows.get(`${accountId}/${key}`);
    if (!row) {
      this.rows.set(`${accountId}/${key}`, { fingerprint, owner, state: 'pending' });
      return { status: 'claimed' };
    }
    return row.state === 'completed'
      ? { status: 'completed', fingerprint: row.fingerprint, resultId: row.resultId ?? 0 }
      : { status: 'pending', fingerprint: row.fingerprint, retryAfterSeconds: 7 };
  }

  async release(accountId: number, { key, owner }: ClaimedKey): Promise<void> {
    const row = this.rows.get(`${accountId}/${key}`);
    if (row?.state === 'pending' && row.owner === owner) this.rows.delete(`${accountId}/${key}`);
  }

  ended(_accountId: number, { owner }: ClaimedKey): void {
    this.endedOwners.push(owner);
  }

  /** What the charging statement does to a claim that is still the caller's; false when it is not. */
  complete(accountId: number, { key, owner }: ClaimedKey, resultId: number): boolean {
    const row = this.rows.get(`${accountId}/${key}`);
    if (row?.state !== 'pending' || row.owner !== owner) return false;
    Object.assign(row, { state: 'completed', resultId });
    return true;
  }
}
