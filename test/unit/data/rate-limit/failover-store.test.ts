/**
 * FailoverStore: the shared store while it answers in time, the in-process one otherwise,
 * and the shared one attached again in the background. Fake stores, fake timers.
 */
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { FailoverStore } from '../../../../src/data/rate-limit/failover-store';

/** A store that records the keys it counted and answers as told. */
class FakeStore implements Store {
  readonly counted: string[] = [];
  initialised: Options | undefined;
  shutDown = false;
  /** How the next calls answer: at once, with an error, or never. */
  mode: 'answer' | 'fail' | 'hang' = 'answer';

  init(options: Options): void {
    this.initialised = options;
  }

  increment(key: string): Promise<ClientRateLimitInfo> {
    if (this.mode === 'fail') return Promise.reject(new Error('connection refused'));
    if (this.mode === 'hang') return new Promise(() => undefined);
    this.counted.push(key);
    return Promise.resolve({ totalHits: this.counted.filter((k) => k === key).length, resetTime: undefined });
  }

  decrement(key: string): Promise<void> {
    return this.increment(`-${key}`).then(() => undefined);
  }

  resetKey(key: string): Promise<void> {
    return this.increment(`reset ${key}`).then(() => undefined);
  }

  shutdown(): void {
    this.shutDown = true;
  }
}

function setUp(attachOutcomes: Array<'ok' | 'fail'>) {
  const primary = new FakeStore();
  const fallback = new FakeStore();
  const warnings: string[] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(String(args.at(-1))) } as never;
  let attempts = 0;
  const store = new FailoverStore(primary, fallback, {
    prefix: 'rl:',
    fallbackAfterMs: 100,
    retryEveryMs: 1000,
    logger,
    attach: async () => {
      const outcome = attachOutcomes[Math.min(attempts, attachOutcomes.length - 1)];
      attempts += 1;
      if (outcome === 'fail') throw new Error('ECONNREFUSED');
    },
  });
  return { store, primary, fallback, warnings, attempts: () => attempts };
}

/** Lets the promise callbacks queued so far run (fake timers do not advance them). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

describe('FailoverStore', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('when the primary attaches, then it is shared and counts every call', async () => {
    const { store, primary, fallback, warnings } = setUp(['ok']);

    await store.attach();
    await store.increment('1.2.3.4');
    await store.decrement('1.2.3.4');
    await store.resetKey('1.2.3.4');

    expect(store.isShared()).toBe(true);
    expect(primary.counted).toEqual(['1.2.3.4', '-1.2.3.4', 'reset 1.2.3.4']);
    expect(fallback.counted).toEqual([]);
    expect(warnings).toEqual([]);
  });

  test('when the first attach fails, then the fallback counts, one warning is logged, and the next attempt comes after retryEveryMs', async () => {
    const { store, primary, fallback, warnings, attempts } = setUp(['fail', 'fail', 'ok']);

    await store.attach();
    const info = await store.increment('a');

    expect(store.isShared()).toBe(false);
    expect(info.totalHits).toBe(1);
    expect(fallback.counted).toEqual(['a']);
    expect(primary.counted).toEqual([]);
    expect(warnings).toEqual(['rate limit store: Redis unavailable, using the in-process limit until it answers']);

    await jest.advanceTimersByTimeAsync(999);
    expect(attempts()).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(attempts()).toBe(2);
    expect(store.isShared()).toBe(false);
    expect(warnings).toHaveLength(1);

    await jest.advanceTimersByTimeAsync(1000);
    expect(attempts()).toBe(3);
    expect(store.isShared()).toBe(true);
    expect(warnings.at(-1)).toBe('rate limit store: Redis answers again, using the shared limit');

    await store.increment('a');
    expect(primary.counted).toEqual(['a']);
  });

  test('when the primary fails a call, then that call counts in the fallback, the store detaches, and it attaches again later', async () => {
    const { store, primary, fallback, warnings, attempts } = setUp(['ok']);
    await store.attach();

    primary.mode = 'fail';
    await store.increment('b');
    expect(fallback.counted).toEqual(['b']);
    expect(store.isShared()).toBe(false);
    expect(warnings).toHaveLength(1);

    // Detached: no call reaches the primary until an attach succeeds.
    primary.mode = 'answer';
    await store.increment('b');
    expect(primary.counted).toEqual([]);
    expect(fallback.counted).toEqual(['b', 'b']);

    await jest.advanceTimersByTimeAsync(1000);
    expect(attempts()).toBe(2);
    expect(store.isShared()).toBe(true);
    await store.increment('b');
    expect(primary.counted).toEqual(['b']);
  });

  test('when the primary is slower than fallbackAfterMs, then that call counts in the fallback and the store stays shared', async () => {
    const { store, primary, fallback, warnings } = setUp(['ok']);
    await store.attach();

    primary.mode = 'hang';
    const answer = store.increment('c');
    await jest.advanceTimersByTimeAsync(100);

    expect((await answer).totalHits).toBe(1);
    expect(fallback.counted).toEqual(['c']);
    expect(store.isShared()).toBe(true);
    expect(warnings).toEqual([]);
  });

  test('when attach is called while an attempt runs, then both share that one attempt', async () => {
    const { store, attempts } = setUp(['ok']);

    await Promise.all([store.attach(), store.attach(), store.attach()]);

    expect(attempts()).toBe(1);
  });

  test('when express-rate-limit initialises it, then the fallback gets the options (the primary is initialised by attach)', () => {
    const { store, primary, fallback } = setUp(['ok']);
    const options = { windowMs: 60_000 } as Options;

    store.init(options);

    expect(fallback.initialised).toBe(options);
    expect(primary.initialised).toBeUndefined();
  });

  test('when it is shut down while detached, then no attempt follows and the fallback is shut down', async () => {
    const { store, fallback, attempts } = setUp(['fail']);
    await store.attach();

    store.shutdown();
    await jest.advanceTimersByTimeAsync(10_000);
    await settle();

    expect(attempts()).toBe(1);
    expect(fallback.shutDown).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });
});
