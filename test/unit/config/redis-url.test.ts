/**
 * REDIS_URL is refused at start-up, naming it, exactly when @redis/client would refuse it
 * in createClient (src/config/redis-url.ts); its password is never repeated.
 */
import { createClient } from '@redis/client';
import { ConfigError, loadConfig } from '../../../src/config/config';

const refusedByTheClient = (url: string) => {
  try {
    createClient({ url });
    return false;
  } catch {
    return true;
  }
};

test.each([
  ['a database path that is not a number', 'redis://h:6379/pps', 'must name its database by number'],
  ['a bare % in the password', 'redis://:hunter%2@h:6379', 'has a password with a "%"'],
  ['a bare % in the user name', 'rediss://us%er:pw@h:6379/0', 'has a user name with a "%"'],
])('when REDIS_URL has %s, then config refuses it naming REDIS_URL, as the client would', (_name, url, problem) => {
  expect(refusedByTheClient(url)).toBe(true);
  expect(() => loadConfig({ REDIS_URL: url })).toThrow(ConfigError);
  expect(() => loadConfig({ REDIS_URL: url })).toThrow(`REDIS_URL ${problem}`);
});

test.each([
  ['no path', 'redis://h:6379'],
  ['a database number', 'redis://h:6379/2'],
  ['an encoded % in the password', 'rediss://default:p%25ss@h:6380/0'],
])('when REDIS_URL has %s, then config and the client take it', (_name, url) => {
  expect(refusedByTheClient(url)).toBe(false);
  expect(loadConfig({ REDIS_URL: url }).redisUrl).toBe(url);
});

test('when the password is what is wrong, then the message does not repeat it', () => {
  expect(() => loadConfig({ REDIS_URL: 'redis://:hunter%2@h:6379/pps' })).toThrow(/^(?!.*hunter).*REDIS_URL/);
});
