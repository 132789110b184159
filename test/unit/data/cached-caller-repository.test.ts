import { CachedCallerRepository } from '../../../src/data/cached-caller-repository';
import type { Caller, CallerRepository } from '../../../src/domain/ports';

function counting(callers: Record<string, Caller>): CallerRepository & { lookups: number } {
  const source = {
    lookups: 0,
    findByKeyHash: async (hash: string) => {
      source.lookups += 1;
      return callers[hash] ?? null;
    },
  };
  return source;
}

describe('CachedCallerRepository', () => {
  const ada = { accountId: 1, keyId: 10 };

  test('when a key is looked up twice within the TTL, then the database is asked once', async () => {
    const source = counting({ h1: ada });
    const cache = new CachedCallerRepository(source, 4000, () => 0);
    expect(await cache.findByKeyHash('h1')).toEqual(ada);
    expect(await cache.findByKeyHash('h1')).toEqual(ada);
    expect(source.lookups).toBe(1);
  });

  test('when the TTL has passed, then the key is looked up again (a deactivation shows within the TTL)', async () => {
    const source = counting({ h1: ada });
    let now = 0;
    const cache = new CachedCallerRepository(source, 4000, () => now);
    await cache.findByKeyHash('h1');
    now = 4001;
    await cache.findByKeyHash('h1');
    expect(source.lookups).toBe(2);
  });

  test('when a key is unknown, then it is not remembered', async () => {
    const source = counting({});
    const cache = new CachedCallerRepository(source, 4000, () => 0);
    expect(await cache.findByKeyHash('nope')).toBeNull();
    expect(await cache.findByKeyHash('nope')).toBeNull();
    expect(source.lookups).toBe(2);
  });

  test('when cleared, then every key is looked up again', async () => {
    const source = counting({ h1: ada });
    const cache = new CachedCallerRepository(source, 4000, () => 0);
    await cache.findByKeyHash('h1');
    cache.clear();
    await cache.findByKeyHash('h1');
    expect(source.lookups).toBe(2);
  });
});
