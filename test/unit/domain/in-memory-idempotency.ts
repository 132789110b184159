/** An in-memory IdempotencyRepository for domain tests (the port, not a mock of our modules). */
import type { IdempotencyClaim, IdempotencyRepository } from '../../../src/domain/ports';

export class InMemoryIdempotency implements IdempotencyRepository {
  readonly rows = new Map<string, { fingerprint: string; state: 'pending' | 'completed'; response?: unknown }>();

  async claim(accountId: number, key: string, fingerprint: string): Promise<IdempotencyClaim> {
    const row = this.rows.get(`${accountId}/${key}`);
    if (!row) {
      this.rows.set(`${accountId}/${key}`, { fingerprint, state: 'pending' });
      return { status: 'claimed' };
    }
    return row.state === 'completed' ? { status: 'completed', fingerprint: row.fingerprint, response: row.response } : { status: 'pending', fingerprint: row.fingerprint };
  }

  async release(accountId: number, key: string): Promise<void> {
    this.rows.delete(`${accountId}/${key}`);
  }

  complete(accountId: number, key: string, response: unknown): void {
    const row = this.rows.get(`${accountId}/${key}`);
    if (row) Object.assign(row, { state: 'completed', response });
  }
}
