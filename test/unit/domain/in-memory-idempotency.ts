/** An in-memory IdempotencyRepository for domain tests (the port, not a mock of our modules). */
import type { IdempotencyClaim, IdempotencyRepository } from '../../../src/domain/ports';

export class InMemoryIdempotency implements IdempotencyRepository {
  readonly rows = new Map<string, { fingerprint: string; state: 'pending' | 'completed'; resultId?: number }>();

  async claim(accountId: number, key: string, fingerprint: string): Promise<IdempotencyClaim> {
    const row = this.rows.get(`${accountId}/${key}`);
    if (!row) {
      this.rows.set(`${accountId}/${key}`, { fingerprint, state: 'pending' });
      return { status: 'claimed' };
    }
    return row.state === 'completed'
      ? { status: 'completed', fingerprint: row.fingerprint, resultId: row.resultId ?? 0 }
      : { status: 'pending', fingerprint: row.fingerprint };
  }

  async release(accountId: number, key: string): Promise<void> {
    this.rows.delete(`${accountId}/${key}`);
  }

  /** What the charging statement does to a claimed key. */
  complete(accountId: number, key: string, resultId: number): void {
    const row = this.rows.get(`${accountId}/${key}`);
    if (row) Object.assign(row, { state: 'completed', resultId });
  }
}
