/** Every key of the test Redis and every value they hold, as text: what a test searches for data that must not be there. */
import { createClient } from '@redis/client';
import { requireEnv } from './test-server';

export async function redisTexts(): Promise<string[]> {
  const redis = createClient({ url: requireEnv('REDIS_URL') });
  await redis.connect();
  try {
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
  } finally {
    await redis.quit();
  }
}
