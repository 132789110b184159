import { AppError } from '../../../src/domain/app-error';
import { idempotently } from '../../../src/domain/idempotency';
import { InMemoryIdempotency } from './in-memory-idempotency';

const call = (input: unknown, key: string | null = 'key-1') => ({ accountId: 1, key: key ?? undefined, operation: 'createSnap', input });
const noReplay = async (): Promise<never> => {
  throw new Error('no replay expected');
};

async function kindOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  return error instanceof AppError ? `${error.kind}: ${error.message}` : `not an AppError: ${String(error)}`;
}

describe('idempotently', () => {
  test('when no key is given, then the work runs every time', async () => {
    const keys = new InMemoryIdempotency();
    let runs = 0;
    await idempotently(keys, call({ a: 1 }, null), async () => ++runs, noReplay);
    await idempotently(keys, call({ a: 1 }, null), async () => ++runs, noReplay);
    expect(runs).toBe(2);
    expect(keys.rows.size).toBe(0);
  });

  test('when a completed key is replayed with the same input, then the result is rebuilt from the stored row and the work does not run', async () => {
    const keys = new InMemoryIdempotency();
    await idempotently(
      keys,
      call({ a: 1 }),
      async (claimed) => {
        if (claimed) keys.complete(1, claimed, 7);
        return { snapId: 7 };
      },
      noReplay,
    );
    let ran = false;
    const replay = await idempotently(
      keys,
      call({ a: 1 }),
      async () => {
        ran = true;
        return { snapId: 8 };
      },
      async (resultId) => ({ snapId: resultId }),
    );
    expect(replay).toEqual({ result: { snapId: 7 }, replayed: true });
    expect(ran).toBe(false);
  });

  test('when the same key comes with another input, then it is refused with 422\'s kind', async () => {
    const keys = new InMemoryIdempotency();
    await keys.claim(1, { key: 'key-1', owner: 'another call' }, 'f'.repeat(64));
    expect(await kindOf(idempotently(keys, call({ a: 2 }), async () => 1, noReplay))).toBe(
      'idempotency_mismatch: Idempotency-Key was already used with a different request',
    );
  });

  test('when the first call is still running, then a replay is refused with 409\'s kind', async () => {
    const keys = new InMemoryIdempotency();
    let finish: () => void = () => undefined;
    const first = idempotently(keys, call({ a: 1 }), () => new Promise<number>((resolve) => (finish = () => resolve(1))), noReplay);
    const replay = await idempotently(keys, call({ a: 1 }), async () => 2, noReplay).catch((e: unknown) => e);
    expect(await kindOf(Promise.reject(replay))).toBe('conflict: A request with this Idempotency-Key is still being processed');
    expect(replay).toMatchObject({ retryAfterSeconds: 7 });
    finish();
    await first;
  });

  test.each([
    ['succeeds', async () => 1],
    ['fails', async () => Promise.reject(new Error('upstream down'))],
  ])('when the work %s, then its claim is no longer kept alive', async (_name, work) => {
    const keys = new InMemoryIdempotency();
    let owner = '';
    await idempotently(keys, call({ a: 1 }), async (claimed) => {
      owner = claimed?.owner ?? '';
      expect(keys.endedOwners).toEqual([]);
      return work();
    }, noReplay).catch(() => undefined);
    expect(keys.endedOwners).toEqual([owner]);
  });

  test('when the work fails, then the key is released and a retry runs again', async () => {
    const keys = new InMemoryIdempotency();
    await expect(idempotently(keys, call({ a: 1 }), async () => Promise.reject(new Error('upstream down')), noReplay)).rejects.toThrow('upstream down');
    expect(keys.rows.size).toBe(0);
    expect(await idempotently(keys, call({ a: 1 }), async () => 'second try', noReplay)).toEqual({ result: 'second try', replayed: false });
  });

  test('when the work fails after its claim was taken over, then the new claim is left alone', async () => {
    const keys = new InMemoryIdempotency();
    const failing = idempotently(
      keys,
      call({ a: 1 }),
      async () => {
        // Another call takes the key over (this one outlived its lease), then this one fails.
        keys.rows.set('1/key-1', { fingerprint: 'f'.repeat(64), owner: 'the call that took over', state: 'pending' });
        throw new Error('upstream down');
      },
      noReplay,
    );
    await expect(failing).rejects.toThrow('upstream down');
    expect(keys.rows.get('1/key-1')?.owner).toBe('the call that took over');
  });
});
