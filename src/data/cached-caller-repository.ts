/**
 * Remembers key lookups for a few seconds, so most requests cost no database round trip
 * for authentication. Only found keys are remembered, and never longer than `ttlMs`: a
 * key deactivated on any instance is refused everywhere within that time (DESIGN.md:
 * within 5 seconds). Bounded in size; the oldest entries go first.
 */
import type { Caller, CallerRepository } from '../domain/ports';

export const KEY_CACHE_TTL_MS = 4000;
const MAX_ENTRIES = 10_000;

export class CachedCallerRepository implements CallerRepository {
  private readonly entries = new Map<string, { caller: Caller; expiresAt: number }>();

  constructor(
    private readonly source: CallerRepository,
    private readonly ttlMs: number = KEY_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async findByKeyHash(keyHash: string): Promise<Caller | null> {
    const cached = this.entries.get(keyHash);
    if (cached && cached.expiresAt > this.now()) return cached.caller;
    this.entries.delete(keyHash);
    const caller = await this.source.findByKeyHash(keyHash);
    if (caller) this.remember(keyHash, caller);
    return caller;
  }

  /** Forgets every remembered key: a key deactivated on this instance is refused at once. */
  clear(): void {
    this.entries.clear();
  }

  private remember(keyHash: string, caller: Caller): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(keyHash, { caller, expiresAt: this.now() + this.ttlMs });
  }
}
