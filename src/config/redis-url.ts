/**
 * REDIS_URL as @redis/client reads it (`RedisClient.parseURL`, @redis/client 6): beyond a
 * redis: or rediss: URL, it decodes the user name and password with decodeURIComponent (a
 * `%` not followed by two hex digits throws) and takes the path as the database's number
 * (`/pps` throws). Refused here, naming the variable, rather than when the client is made;
 * the password is never echoed.
 */
import { ConfigError } from './config-error';
import type { EnvReader } from './env-reader';

const NAME = 'REDIS_URL';

export function readRedisUrl(read: EnvReader): string | undefined {
  const raw = read.optionalUrl(NAME, ['redis:', 'rediss:']);
  if (raw === undefined) return undefined;
  const { username, password, pathname } = new URL(raw);
  for (const [part, value] of [['user name', username], ['password', password]] as const) {
    if (!decodes(value)) throw new ConfigError(NAME, `has a ${part} with a "%" not followed by two hex digits: write a literal % as %25`);
  }
  if (pathname.length > 1 && Number.isNaN(Number(pathname.substring(1)))) {
    throw new ConfigError(NAME, `must name its database by number, as in redis://host:6379/0 (got the path "${pathname}")`);
  }
  return raw;
}

function decodes(component: string): boolean {
  try {
    decodeURIComponent(component);
    return true;
  } catch {
    return false;
  }
}
