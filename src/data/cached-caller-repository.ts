/**
 * Remembers key lookups, so that most requests cost no database round trip for
 * authentication, without ever letting a burst stampede the database:
 * - single flight: one lookup per key hash at a time; every request for that key that
 *   arrives meanwhile waits on the same lookup (1,000 concurrent requests on a cold cache
 *   cost one `api_keys` query);
 * - unknown keys are remembered too, for `negativeTtlMs` (a well-formed random key costs
 *   one query per key per that time, whatever the request rate), in their own bounded map
 *   so that a flood of made-up keys cannot push out the real ones;
 * - a key in use is looked up again in the background before it expires (refresh ahead),
 *   so a busy key never drops out of the cache and no wave of misses follows an expiry.
 *
 * Deactivation (docs/operations.md, "Accounts, keys and credits (admin)"): the instance that deactivates a key forgets it at
 * once (`forget`). Every instance asks the database every `pollMs` which keys were
 * deactivated lately and forgets them; a remembered key is trusted only while the last
 * answered poll (or its own lookup) started less than `trustMs` ago, so a key deactivated
 * anywhere is refused on every instance within `trustMs` (KEY_DEACTIVATION_BOUND_MS),
 * even while polls fail: then keys are looked up per request again.
 */
import type { Caller, CallerRepository } from '../domain/ports';

/** What the cache needs of the database besides the lookup itself. */
export interface DeactivatedKeys {
  /** Hashes of the keys deactivated within the last `withinSeconds` seconds. */
  deactivatedWithin(withinSeconds: number): Promise<string[]>;
}

export interface KeyCacheOptions {
  /** How long a found key is remembered (refreshed ahead of that while in use). */
  ttlMs: number;
  /** How long an unknown key is remembered. */
  negativeTtlMs: number;
  /** How often the deactivated keys are polled. */
  pollMs: number;
  /** How long after its lookup or the last answered poll began a remembered key is trusted. */
  trustMs: number;
  now: () => number;
}

/** A key deactivated on any instance is refused on every other one within this time. */
export const KEY_DEACTIVATION_BOUND_MS = 3000;

export const KEY_CACHE_DEFAULTS: KeyCacheOptions = {
  ttlMs: 60_000,
  negativeTtlMs: 5000,
  pollMs: 1000,
  trustMs: KEY_DEACTIVATION_BOUND_MS,
  now: Date.now,
};

/** A poll looks back this far, so that a late poll (or a long deactivating transaction) misses nothing. */
const POLL_WINDOW_SECONDS = 60;
/** Refresh a found key in use once this share of its TTL has passed. */
const REFRESH_AFTER_SHARE = 0.75;
const MAX_ENTRIES = 10_000;

interface Entry {
  caller: Caller | null;
  /** When the lookup that produced it began. */
  fetchedAt: number;
  expiresAt: number;
}

export class CachedCallerRepository implements CallerRepository {
  private readonly found = new Map<string, Entry>();
  private readonly unknown = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Caller | null>>();
  /** Hashes the last answered poll reported deactivated: never remembered as found again. */
  private deactivated = new Set<string>();
  /** When the last answered poll began (-Infinity: none yet). */
  private polledAt = Number.NEGATIVE_INFINITY;
  private polling: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly options: KeyCacheOptions;

  constructor(
    private readonly source: CallerRepository & DeactivatedKeys,
    options: Partial<KeyCacheOptions> = {},
  ) {
    this.options = { ...KEY_CACHE_DEFAULTS, ...options };
  }

  /** How many lookups were asked of the cache (a test hook: the requests that reached authentication). */
  asked = 0;

  async findByKeyHash(keyHash: string): Promise<Caller | null> {
    this.asked += 1;
    const now = this.options.now();
    const entry = this.found.get(keyHash) ?? this.unknown.get(keyHash);
    if (entry && entry.expiresAt > now && this.trusted(entry, now)) {
      if (entry.caller && now - entry.fetchedAt > this.options.ttlMs * REFRESH_AFTER_SHARE) {
        this.lookUp(keyHash).catch(() => undefined);
      }
      return entry.caller;
    }
    return this.lookUp(keyHash);
  }

  /**
   * Forgets one key as found (deactivated: refused from the next request). Its place among
   * the unknown keys, if it has one, is kept: that answer is already the right one, and a
   * deactivated key still being sent costs a query per `negativeTtlMs`, not one per poll.
   */
  forget(keyHash: string): void {
    this.deactivated.add(keyHash);
    this.found.delete(keyHash);
  }

  /** Forgets every remembered key. */
  clear(): void {
    this.found.clear();
    this.unknown.clear();
  }

  /** When the last answered poll of the deactivated keys began (by `now`); -Infinity before the first. */
  lastPollStartedAt(): number {
    return this.polledAt;
  }

  /** Polls the deactivated keys at once, then every `pollMs`. */
  start(): void {
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.polling;
  }

  /** One poll of the deactivated keys (single flight); a failed poll leaves the keys to lose their trust. */
  poll(): Promise<void> {
    this.polling ??= (async () => {
      const startedAt = this.options.now();
      const before = new Set(this.deactivated);
      try {
        const hashes = await this.source.deactivatedWithin(POLL_WINDOW_SECONDS);
        // Keys forgotten here while the poll ran: its answer, read before, may not hold them.
        const forgottenMeanwhile = [...this.deactivated].filter((hash) => !before.has(hash));
        for (const hash of hashes) this.forget(hash);
        this.deactivated = new Set([...hashes, ...forgottenMeanwhile]);
        this.polledAt = startedAt;
      } catch {
        // The database did not answer: remembered keys stop being trusted after trustMs.
      } finally {
        this.polling = undefined;
      }
    })();
    return this.polling;
  }

  private trusted(entry: Entry, now: number): boolean {
    return Math.max(entry.fetchedAt, this.polledAt) > now - this.options.trustMs;
  }

  private lookUp(keyHash: string): Promise<Caller | null> {
    let lookup = this.inFlight.get(keyHash);
    if (!lookup) {
      const startedAt = this.options.now();
      lookup = this.source.findByKeyHash(keyHash).then(
        (caller) => {
          this.inFlight.delete(keyHash);
          this.remember(keyHash, caller, startedAt);
          return caller;
        },
        (err: unknown) => {
          this.inFlight.delete(keyHash);
          throw err;
        },
      );
      this.inFlight.set(keyHash, lookup);
    }
    return lookup;
  }

  private remember(keyHash: string, caller: Caller | null, fetchedAt: number): void {
    if (caller && this.deactivated.has(keyHash)) return;
    const [map, other, ttlMs] = caller ? [this.found, this.unknown, this.options.ttlMs] : [this.unknown, this.found, this.options.negativeTtlMs];
    other.delete(keyHash);
    map.delete(keyHash);
    if (map.size >= MAX_ENTRIES) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    map.set(keyHash, { caller, fetchedAt, expiresAt: fetchedAt + ttlMs });
  }
}
