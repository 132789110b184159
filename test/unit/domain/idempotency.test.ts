import { AppError } from '../../../src/domain/app-error';
import { claimKey } from '../../../src/domain/idempotency';
import { InMemoryIdempotency } from './in-memory-idempotency';

const call = (input: unknown, key: string | null = 'key-1') => ({ accountId: 1, key: key ?? undefined, operation: 'createSnap', input });

async function kindOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  return error instanceof AppError ? `${error.kind}: ${error.message}` : `not an AppError: ${String(error)}`;
}

describe('claimKey', () => {
  test('when no key is given, then nothing is claimed and nothing is stored', async () => {
    const keys = new InMemoryIdempotency();
    expect(await claimKey(keys, call({ a: 1 }, null))).toEqual({ claimed: undefined });
    expect(keys.rows.size).toBe(0);
  });

  test('when the key is free, then it is claimed with a token of this call', async () => {
    const keys = new InMemoryIdempotency();
    const { claimed } = await claimKey(keys, call({ a: 1 }));
    expect(claimed?.key).toBe('key-1');
    expect(keys.rows.get('1/key-1')?.owner).toBe(claimed?.owner);
  });

  test('when a completed key comes with the same input, then the stored row is named for the replay', async () => {
    const keys = new InMemoryIdempotency();
    const { claimed } = await claimKey(keys, call({ a: 1 }));
    if (claimed) keys.complete(1, claimed, 7);
    expect(await claimKey(keys, call({ a: 1 }))).toEqual({ replayOf: 7 });
  });

  test("when the same key comes with another input, then it is refused with 422's kind", async () => {
    const keys = new InMemoryIdempotency();
    await keys.claim(1, { key: 'key-1', owner: 'another call' }, 'f'.repeat(64));
    expect(await kindOf(claimKey(keys, call({ a: 2 })))).toBe('idempotency_mismatch: Idempotency-Key was already used with a different request');
  });

  test("when the first call is still running, then a replay is refused with 409's kind and the repository's Retry-After", async () => {
    const keys = new InMemoryIdempotency();
    await claimKey(keys, call({ a: 1 }));
    const replay = await claimKey(keys, call({ a: 1 })).catch((e: unknown) => e);
    expect(await kindOf(Promise.reject(replay))).toBe('conflict: A request with this Idempotency-Key is still being processed');
    expect(replay).toMatchObject({ retryAfterSeconds: 7 });
  });
});
