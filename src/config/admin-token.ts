/**
 * ADMIN_TOKEN: at least 16 characters, and never a placeholder: anything starting with
 * "change-me", as `change-me-to-a-long-random-secret` (.env.example's until it was left
 * empty) did. A copied example left as it was would otherwise turn on the admin API with
 * a token anyone can read. The token itself is never echoed.
 */
import { ConfigError } from './config-error';
import type { EnvReader } from './env-reader';

const NAME = 'ADMIN_TOKEN';
const PLACEHOLDER = /^change-?me/i;

export function readAdminToken(read: EnvReader): string | undefined {
  if (PLACEHOLDER.test(read.optionalString(NAME) ?? '')) {
    throw new ConfigError(NAME, 'is a placeholder (it starts with "change-me"): set a random secret of your own, e.g. the output of openssl rand -hex 32');
  }
  return read.optionalString(NAME, { minLength: 16 });
}
