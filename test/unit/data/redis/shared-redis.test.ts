/**
 * The one availability policy of Redis (shared-redis.ts): counts go to Redis while it is
 * available, however slowly it answers within the bound; any failure or silence makes it
 * unavailable and this process answers, without waiting; a PING every second notices an
 * idle failure and brings Redis back, with its setup run again. A fake client in place
 * of @redis/client's, fake timers.
 */
import { createSharedRedis, type SharedRedis } from '../../../../src/data/redis/shared-redis';

/** A client that records the commands it got and answers as told. */
class FakeClient {
  readonly commands: string[][] = [];
  /** How the next commands answer: at once, with an error, never, or after `slowMs`. */
  mode: 'answer' | 'fail' | 'hang' | 'slow' = 'answer';
  slowMs = 0;
  /** Commands whose first word is listed are refused as an ACL would (NOPERM). */
  refused = new Set<string>();
  connects = true;
  isOpen = false;
  closed = false;
  /** A silent Redis: close() waits for the queued commands' answers, which never come. */
  closeHangs = false;
  destroyed = false;

  on(): this {
    return this;
  }

  connect(): Promise<this> {
    this.isOpen = true;
    return this.connects ? Promise.resolve(this) : new Promise(() => undefined);
  }

  sendCommand(args: string[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('The client is closed'));
    if (this.mode === 'fail') return Promise.reject(new Error('connection refused'));
    if (this.refused.has(args[0] ?? '')) return Promise.reject(new Error(`NOPERM User has no permissions to run the '${args[0]}' command`));
    if (this.mode === 'hang') return new Promise(() => undefined);
    this.commands.push(args);
    if (this.mode === 'slow') return new Promise((resolve) => setTimeout(() => resolve('OK'), this.slowMs));
    return Promise.resolve('OK');
  }

  close(): Promise<void> {
    if (this.closeHangs) return new Promise(() => undefined);
    this.closed = true;
    this.isOpen = false;
    return Promise.resolve();
  }

  destroy(): void {
    this.closed = true;
    this.destroyed = true;
  }
}

let client: FakeClient;
jest.mock('@redis/client', () => ({ createClient: () => client }));

function setUp(): { redis: SharedRedis; warnings: string[]; setups: () => number } {
  const warnings: string[] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(String(args.at(-1))), debug: () => undefined } as never;
  const redis = createSharedRedis({ url: 'redis://fake', logger, writeProbeKey: 'pps:redis-writable', answerWithinMs: 2000, everyMs: 1000 });
  let setups = 0;
  redis.onAttach(async () => {
    setups += 1;
    await redis.send(['SCRIPT', 'LOAD', 'return 1']);
  });
  return { redis, warnings, setups: () => setups };
}

const DOWN = 'Redis unavailable, using the in-process limit and failure budget until it answers';
const BACK = 'Redis answers again: the rate limit and the failure budget are shared again';

/** Asks Redis for `word` (or this process's `local` answer when Redis is unavailable). */
function count(redis: SharedRedis, word: string): Promise<string> {
  return redis.orLocal(
    async () => `redis ${String(await redis.send([word]))}`,
    () => 'local',
  );
}

describe('SharedRedis', () => {
  beforeEach(() => {
    client = new FakeClient();
    jest.useFakeTimers();
  });
  afterEach(() => jest.useRealTimers());

  test('when Redis answers at start, then it is available, its setup ran, calls go to it, and nothing is logged', async () => {
    const { redis, warnings, setups } = setUp();
    await redis.start();

    expect(redis.available()).toBe(true);
    expect(setups()).toBe(1);
    expect(await count(redis, 'INCR')).toBe('redis OK');
    expect(warnings).toEqual([]);
    await redis.close();
  });

  test('when Redis does not connect at start, then start ends after the bound, this process answers without asking Redis, and one warning is logged', async () => {
    client.connects = false;
    const { redis, warnings } = setUp();
    const started = redis.start();
    await jest.advanceTimersByTimeAsync(2000);
    await started;

    expect(redis.available()).toBe(false);
    expect(await count(redis, 'INCR')).toBe('local');
    expect(client.commands).toEqual([]);
    expect(warnings).toEqual([DOWN]);
    await redis.close();
  });

  test('when a call fails, then that call is answered locally, Redis is unavailable, and the next PING brings it back with its setup', async () => {
    const { redis, warnings, setups } = setUp();
    await redis.start();

    client.mode = 'fail';
    expect(await count(redis, 'INCR')).toBe('local');
    expect(redis.available()).toBe(false);
    expect(await count(redis, 'INCR')).toBe('local');
    expect(warnings).toEqual([DOWN]);

    client.mode = 'answer';
    await jest.advanceTimersByTimeAsync(1000);
    expect(redis.available()).toBe(true);
    expect(setups()).toBe(2);
    expect(warnings).toEqual([DOWN, BACK]);
    await redis.close();
  });

  test('when Redis is slow but answers within the bound, then its answer is the count and it stays available', async () => {
    const { redis, warnings } = setUp();
    await redis.start();

    client.mode = 'slow';
    client.slowMs = 1900;
    const answer = count(redis, 'INCR');
    await jest.advanceTimersByTimeAsync(1900);

    expect(await answer).toBe('redis OK');
    expect(redis.available()).toBe(true);
    expect(warnings).toEqual([]);
    await redis.close();
  });

  test('when the answer is read in the same turn of the loop as the expired bound, then it counts: a busy loop is not a silent Redis', async () => {
    const { redis } = setUp();
    await redis.start();

    // Due at the same instant as the bound, and run after it: what a lagging loop does.
    client.mode = 'slow';
    client.slowMs = 2000;
    const answer = count(redis, 'INCR');
    await jest.advanceTimersByTimeAsync(2001);

    expect(await answer).toBe('redis OK');
    expect(redis.available()).toBe(true);
    await redis.close();
  });

  test('when Redis does not answer within the bound, then that call is answered locally and the next ones without waiting', async () => {
    const { redis, warnings } = setUp();
    await redis.start();

    client.mode = 'hang';
    const answer = count(redis, 'INCR');
    // The timer, then the turn of the loop that reads what arrived (fake timers run it 1 ms on).
    await jest.advanceTimersByTimeAsync(2001);

    expect(await answer).toBe('local');
    expect(redis.available()).toBe(false);
    expect(await count(redis, 'INCR')).toBe('local');
    expect(warnings).toEqual([DOWN]);
    await redis.close();
  });

  test('when no call comes and Redis starts failing, then the next PING makes it unavailable, and a later one brings it back', async () => {
    const { redis } = setUp();
    await redis.start();
    await jest.advanceTimersByTimeAsync(3000);
    expect(redis.available()).toBe(true);

    client.mode = 'fail';
    await jest.advanceTimersByTimeAsync(1000);
    expect(redis.available()).toBe(false);

    client.mode = 'answer';
    await jest.advanceTimersByTimeAsync(1000);
    expect(redis.available()).toBe(true);
    await redis.close();
  });

  test('when no call comes and Redis stops answering, then it is unavailable within a PING interval and the bound', async () => {
    const { redis } = setUp();
    await redis.start();

    client.mode = 'hang';
    await jest.advanceTimersByTimeAsync(1000 + 2001);
    expect(redis.available()).toBe(false);
    await redis.close();
  });

  test('when Redis answers PING but refuses the setup (an ACL without SCRIPT), then it stays unavailable, warned once, until the setup passes', async () => {
    client.refused.add('SCRIPT');
    const { redis, warnings } = setUp();
    await redis.start();
    expect(redis.available()).toBe(false);

    await jest.advanceTimersByTimeAsync(3000);
    expect(redis.available()).toBe(false);
    expect(warnings).toEqual([DOWN]);

    client.refused.clear();
    await jest.advanceTimersByTimeAsync(1000);
    expect(redis.available()).toBe(true);
    expect(warnings).toEqual([DOWN, BACK]);
    await redis.close();
  });

  test('when Redis answers PING and the setup but refuses writes (a replica after a failover: READONLY), then it stays unavailable, warned once, instead of coming back each second', async () => {
    client.refused.add('SET');
    client.refused.add('EVALSHA');
    const { redis, warnings } = setUp();
    await redis.start();

    for (let second = 0; second < 3; second += 1) {
      expect(await count(redis, 'EVALSHA')).toBe('local');
      await jest.advanceTimersByTimeAsync(1000);
    }
    expect([redis.available(), warnings]).toEqual([false, [DOWN]]);

    client.refused.clear();
    await jest.advanceTimersByTimeAsync(1000);
    expect([redis.available(), warnings]).toEqual([true, [DOWN, BACK]]);
    await redis.close();
  });

  test('when Redis has gone silent, then closing drops the connection after the bound instead of waiting for ever', async () => {
    const { redis } = setUp();
    await redis.start();
    client.closeHangs = true;

    const closing = redis.close();
    await jest.advanceTimersByTimeAsync(2000);
    await closing;

    expect(client.destroyed).toBe(true);
  });

  test('when readiness asks, then a PING that fails makes Redis unavailable, and a check while unavailable rejects at once', async () => {
    const { redis } = setUp();
    await redis.start();
    await expect(redis.check()).resolves.toBeUndefined();

    client.mode = 'fail';
    await expect(redis.check()).rejects.toThrow('connection refused');
    expect(redis.available()).toBe(false);
    const sent = client.commands.length;
    await expect(redis.check()).rejects.toThrow('counts are kept in this process');
    expect(client.commands).toHaveLength(sent);
    await redis.close();
  });

  test('when it is closed, then no PING follows and the client is closed', async () => {
    const { redis } = setUp();
    await redis.start();
    await redis.close();
    const sent = client.commands.length;

    await jest.advanceTimersByTimeAsync(5000);
    expect(client.commands).toHaveLength(sent);
    expect(client.closed).toBe(true);
    expect(redis.available()).toBe(false);
  });
});
