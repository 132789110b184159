import { CachedCallerRepository, type KeyCacheOptions } from '../../../src/data/cached-caller-repository';
import type { Caller } from '../../../src/domain/ports';

/** A key table in memory that counts its lookups; `hold()` keeps the next lookups waiting until `release()`. */
function keyTable(callers: Record<string, Caller>) {
  let gate: Promise<void> | undefined;
  let open: () => void = () => undefined;
  const table = {
    lookups: 0,
    polls: 0,
    deactivated: [] as string[],
    pollFails: false,
    lookupFails: false,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      gate = undefined;
      open();
    },
    findByKeyHash: async (hash: string) => {
      table.lookups += 1;
      const found = table.deactivated.includes(hash) ? null : (callers[hash] ?? null);
      await gate;
      if (table.lookupFails) throw new Error('connect ECONNREFUSED');
      return found;
    },
    deactivatedWithin: async () => {
      table.polls += 1;
      if (table.pollFails) throw new Error('connect ECONNREFUSED');
      return [...table.deactivated];
    },
  };
  return table;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CachedCallerRepository', () => {
  const ada = { accountId: 1, keyId: 10 };
  let now = 0;
  const options: Partial<KeyCacheOptions> = { ttlMs: 60_000, negativeTtlMs: 5000, trustMs: 3000, now: () => now };
  beforeEach(() => {
    now = 0;
  });

  test('when 1,000 requests ask for one key on a cold cache at once, then the database is asked once and all get the caller', async () => {
    const table = keyTable({ h1: ada });
    const cache = new CachedCallerRepository(table, options);
    table.hold();
    const answers = Array.from({ length: 1000 }, () => cache.findByKeyHash('h1'));
    table.release();
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 1000 }, () => ada));
    expect(table.lookups).toBe(1);
  });

  test('when the one lookup fails, then every waiting request gets its error and nothing is remembered', async () => {
    const table = keyTable({ h1: ada });
    const cache = new CachedCallerRepository(table, options);
    table.lookupFails = true;
    const answers = await Promise.allSettled(Array.from({ length: 10 }, () => cache.findByKeyHash('h1')));
    expect(answers.every((answer) => answer.status === 'rejected')).toBe(true);
    expect(table.lookups).toBe(1);
    table.lookupFails = false;
    expect(await cache.findByKeyHash('h1')).toEqual(ada);
    expect(table.lookups).toBe(2);
  });

  test('when a key is looked up twice within its TTL, then the database is asked once', async () => {
    const table = keyTable({ h1: ada });
    const cache = new CachedCallerRepository(table, options);
    expect(await cache.findByKeyHash('h1')).toEqual(ada);
    now = 1000;
    expect(await cache.findByKeyHash('h1')).toEqual(ada);
    expect(table.lookups).toBe(1);
  });

  test('when an unknown key is asked for again within the negative TTL, then the database is asked once; after it, again', async () => {
    const table = keyTable({});
    const cache = new CachedCallerRepository(table, options);
    expect(await cache.findByKeyHash('nope')).toBeNull();
    now = 2000;
    expect(await cache.findByKeyHash('nope')).toBeNull();
    expect(table.lookups).toBe(1);
    now = 5001;
    expect(await cache.findByKeyHash('nope')).toBeNull();
    expect(table.lookups).toBe(2);
  });

  test('when a remembered key is used late in its TTL, then it is refreshed in the background and never misses at expiry', async () => {
    const table = keyTable({ h1: ada });
    const cache = new CachedCallerRepository(table, options);
    await cache.findByKeyHash('h1');
    await cache.poll();
    now = 46_000;
    await cache.poll();
    expect(await cache.findByKeyHash('h1')).toEqual(ada);
    await settle();
    expect(table.lookups).toBe(2);
    now = 61_000;
    await cache.poll();
    table.hold();
    expect(await cache.findByKeyHash('h1')).toEqual(ada);
    table.release();
    expect(table.lookups).toBe(2);
  });

  test('when a poll reports a key deactivated, then the next request for it asks the database and is refused', async () => {
    const table = keyTable({ h1: ada });
    const cache = new CachedCallerRepository(table, options);
    await cache.findByKeyHash('h1');
    table.deactivated.push('h1');
    await cache.poll();
    expect(await cache.findByKeyHash('h1')).toBeNull();
    expect(table.lookups).toBe(2);
  });

  test('when polls keep reporting a deactivated key that is still being sent, then it is looked up once per negative TTL, not once per poll', async () => {
    const table = keyTable({ h1: ada });
    table.deactivated.push('h1');
    const cache = new CachedCallerRepository(table, options);
    await cache.poll();
    expect(await cache.findByKeyHash('h1')).toBeNull();
    for (now = 1000; now < 5000; now += 1000) {
      await cache.poll();
      expect(await cache.findByKeyHash('h1')).toBeNull();
    }
    expect(table.lookups).toBe(1);
    now = 5000;
    await cache.poll();
    expect(await cache.findByKeyHash('h1')).toBeNull();
    expect(table.lookups).toBe(2);
  });

  test('when a lookup that began before a deactivation ends after the poll saw it, then its answer is not remembered', async () => {
    const table = keyTable({ h1: ada });
    const cache = new CachedCallerRepository(table, options);
    table.hold();
    const early = cache.findByKeyHash('h1');
    table.deactivated.push('h1');
    await cache.poll();
    table.release();
    expect(await early).toEqual(ada);
    expect(await cache.findByKeyHash('h1')).toBeNull();
    expect(table.lookups).toBe(2);
  });

  test('when a key is forgotten here while a poll that read the table before it is under way, then neither the poll nor a lookup begun before brings it back', async () => {
    let answerPoll: (hashes: string[]) => void = () => undefined;
    let answerLookup: (caller: Caller | null) => void = () => undefined;
    let deactivated = false;
    const source = {
      deactivatedWithin: () => new Promise<string[]>((resolve) => (answerPoll = resolve)),
      findByKeyHash: (hash: string) => (deactivated ? Promise.resolve(null) : new Promise<Caller | null>((resolve) => (answerLookup = resolve))).then((caller) => (hash === 'h1' ? caller : null)),
    };
    const cache = new CachedCallerRepository(source, options);
    const early = cache.findByKeyHash('h1');
    const polling = cache.poll();
    deactivated = true;
    cache.forget('h1');
    answerPoll([]);
    await polling;
    answerLookup(ada);
    await early;

    expect(await cache.findByKeyHash('h1')).toBeNull();
  });

  test('when polls fail, then a remembered key is trusted for trustMs after its lookup and then asked for per request', async () => {
    const table = keyTable({ h1: ada });
    const cache = new CachedCallerRepository(table, options);
    table.pollFails = true;
    await cache.findByKeyHash('h1');
    now = 2999;
    await cache.poll();
    await cache.findByKeyHash('h1');
    expect(table.lookups).toBe(1);
    now = 3001;
    await cache.findByKeyHash('h1');
    expect(table.lookups).toBe(2);
  });

  test('when polls answer, then a remembered key stays trusted past trustMs after its lookup', async () => {
    const table = keyTable({ h1: ada });
    const cache = new CachedCallerRepository(table, options);
    await cache.findByKeyHash('h1');
    now = 10_000;
    await cache.poll();
    now = 12_000;
    await cache.findByKeyHash('h1');
    expect(table.lookups).toBe(1);
  });

  test('when a key is forgotten (deactivated on this instance), then the next request asks the database', async () => {
    const table = keyTable({ h1: ada });
    const cache = new CachedCallerRepository(table, options);
    await cache.findByKeyHash('h1');
    table.deactivated.push('h1');
    cache.forget('h1');
    expect(await cache.findByKeyHash('h1')).toBeNull();
    expect(table.lookups).toBe(2);
  });
});
