/** The test Redis as a test reads it. */
import { createClient } from '@redis/client';
import { requireEnv } from './test-server';

/** Every key of the test Redis and every value they hold, as text: what a test searches for data that must not be there. */
export function redisTexts(): Promise<string[]> {
  return withTestRedis(async (redis) => {
    const texts: string[] = [];
    for await (const keys of redis.scanIterator({ COUNT: 1000 })) {
      for (const key of [keys].flat()) {
        texts.push(key);
        const type = await redis.type(key);
        if (type === 'string') texts.push(String(await redis.get(key)));
        if (type === 'zset') texts.push(...(await redis.zRange(key, 0, -1)));
        if (type === 'hash') texts.push(...Object.entries(await redis.hGetAll(key)).flat());
        if (type === 'list') texts.push(...(await redis.lRange(key, 0, -1)));
        if (type === 'set') texts.push(...(await redis.sMembers(key)));
      }
    }
    return texts;
  });
}

const testRedisClient = () => createClient({ url: requireEnv('REDIS_URL') });

/** Runs `use` with a client of the test Redis (REDIS_URL), closed after. */
export async function withTestRedis<T>(use: (redis: ReturnType<typeof testRedisClient>) => Promise<T>): Promise<T> {
  const redis = testRedisClient();
  await redis.connect();
  try {
    return await use(redis);
  } finally {
    await redis.quit();
  }
}
