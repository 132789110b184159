/**
 * FailoverStore: the shared store while it is alive (however slowly it answers), the
 * in-process one after it failed or went silent, and the shared one attached again in the
 * background. Fake stores, fake timers.
 */
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { FailoverStore } from '../../../../src/data/rate-limit/failover-store';

/** A store that records the keys it counted and answers as told. */
class FakeStore implements Store {
  readonly counted: string[] = [];
  initialised: Options | undefined;
  shutDown = false;
  /** How the next calls answer: at once, with an error, never, or after `slowMs`. */
  mode: 'answer' | 'fail' | 'hang' | 'slow' = 'answer';
  slowMs = 0;

  init(options: Options): void {
    this.initialised = options;
  }

  increment(key: string): Promise<ClientRateLimitInfo> {
    if (this.mode === 'fail') return Promise.reject(new Error('connection refused'));
    if (this.mode === 'hang') return new Promise(() => undefined);
    this.counted.push(key);
    const info = { totalHits: this.counted.filter((k) => k === key).length, resetTime: undefined };
    if (this.mode === 'slow') return new Promise((resolve) => setTimeout(() => resolve(info), this.slowMs));
    return Promise.resolve(info);
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
  /** How the primary answers PING: as its calls do. */
  const check = () => primary.increment('ping');
  const fallback = new FakeStore();
  const warnings: string[] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(String(args.at(-1))) } as never;
  let attempts = 0;
  const store = new FailoverStore(primary, fallback, {
    prefix: 'rl:',
    detachAfterMs: 2000,
    retryEveryMs: 1000,
    checkEveryMs: 1000,
    logger,
    check,
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

  test('when the primary is slow but answers within detachAfterMs, then the call is judged by its count and the store stays shared', async () => {
    const { store, primary, fallback, warnings } = setUp(['ok']);
    await store.attach();

    primary.mode = 'slow';
    primary.slowMs = 1999;
    const answers = [store.increment('c'), store.increment('c')];
    await jest.advanceTimersByTimeAsync(1999);

    expect((await Promise.all(answers)).map((info) => info.totalHits)).toEqual([1, 2]);
    expect(fallback.counted).toEqual([]);
    expect(store.isShared()).toBe(true);
    expect(warnings).toEqual([]);
  });

  test('when the answer is read in the same turn of the loop as an expired timer, then it counts: a busy loop is not a dead primary', async () => {
    const { store, primary, fallback } = setUp(['ok']);
    await store.attach();

    // Due at the same instant as the timeout, and run after it: what a lagging loop does.
    primary.mode = 'slow';
    primary.slowMs = 2000;
    const answer = store.increment('d');
    await jest.advanceTimersByTimeAsync(2001);

    expect((await answer).totalHits).toBe(1);
    expect(fallback.counted).toEqual([]);
    expect(store.isShared()).toBe(true);
  });

  test('when the primary does not answer within detachAfterMs, then that call counts in the fallback and the store detaches', async () => {
    const { store, primary, fallback, warnings } = setUp(['ok']);
    await store.attach();

    primary.mode = 'hang';
    const answer = store.increment('e');
    // The timer, then the turn of the loop that reads what arrived (fake timers run it 1 ms on).
    await jest.advanceTimersByTimeAsync(2001);

    expect((await answer).totalHits).toBe(1);
    expect(fallback.counted).toEqual(['e']);
    expect(store.isShared()).toBe(false);
    expect(warnings).toHaveLength(1);
  });

  test('when no call comes and the primary starts failing, then the next check detaches it within checkEveryMs, and it attaches again', async () => {
    const { store, primary, warnings, attempts } = setUp(['ok']);
    await store.attach();
    await jest.advanceTimersByTimeAsync(3000);
    expect(store.isShared()).toBe(true);

    primary.mode = 'fail';
    await jest.advanceTimersByTimeAsync(1000);
    expect(store.isShared()).toBe(false);
    expect(warnings).toEqual(['rate limit store: Redis unavailable, using the in-process limit until it answers']);

    primary.mode = 'answer';
    await jest.advanceTimersByTimeAsync(1000);
    expect(attempts()).toBe(2);
    expect(store.isShared()).toBe(true);
  });

  test('when no call comes and the primary stops answering, then it is detached within checkEveryMs + detachAfterMs', async () => {
    const { store, primary } = setUp(['ok']);
    await store.attach();

    primary.mode = 'hang';
    await jest.advanceTimersByTimeAsync(2999);
    expect(store.isShared()).toBe(true);
    await jest.advanceTimersByTimeAsync(2);
    expect(store.isShared()).toBe(false);
  });

  test('when readiness asks, then a check that fails detaches it, and one while detached rejects at once', async () => {
    const { store, primary } = setUp(['ok']);
    await store.attach();

    primary.mode = 'fail';
    await expect(store.check()).rejects.toThrow('connection refused');
    expect(store.isShared()).toBe(false);
    await expect(store.check()).rejects.toThrow('counted in this process');
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

  test('when it is shut down while shared, then no check follows', async () => {
    const { store, primary } = setUp(['ok']);
    await store.attach();

    store.shutdown();
    await jest.advanceTimersByTimeAsync(10_000);

    expect(primary.counted).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
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
