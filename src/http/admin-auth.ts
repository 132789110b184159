/**
 * The admin listener's bearer token, compared in constant time, and a bound on guessing it:
 * once one client address has sent `failuresPerMinute` wrong tokens in a minute, every
 * admin request from it is refused (429) until that minute ends, the right token included,
 * so that no guess is checked past the bound. Only wrong tokens are counted, in
 * express-rate-limit's MemoryStore (this process; a fixed window): any number of requests
 * with the right one may run at once. The address is the socket's (the admin listener
 * trusts no proxy), an IPv6 one by its /64 as the public rate limit counts it.
 */
import type { RequestHandler } from 'express';
import { ipKeyGenerator, MemoryStore, type Options } from 'express-rate-limit';
import { AppError } from '../domain/app-error';
import { secretsEqual } from '../domain/api-keys';
import { MESSAGES } from '../domain/messages';
import { IPV6_CLIENT_PREFIX, secondsToReset } from './rate-limit';

const ADMIN_TOKEN_FAILURE_WINDOW_SECONDS = 60;

export function adminTokenAuth(adminToken: string, failuresPerMinute: number): RequestHandler {
  const failures = new MemoryStore();
  failures.init({ windowMs: ADMIN_TOKEN_FAILURE_WINDOW_SECONDS * 1000 } as Options);
  return async (req, _res, next) => {
    const address = ipKeyGenerator(req.socket.remoteAddress ?? '', IPV6_CLIENT_PREFIX);
    const seen = await failures.get(address);
    if (seen && seen.totalHits >= failuresPerMinute) {
      const retryAfterSeconds = secondsToReset(seen, ADMIN_TOKEN_FAILURE_WINDOW_SECONDS);
      next(new AppError({ kind: 'rate_limited', message: MESSAGES.tooManyAdminTokenFailures, retryAfterSeconds }));
      return;
    }
    const header = req.get('authorization') ?? '';
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!secretsEqual(token, adminToken)) {
      await failures.increment(address);
      next(new AppError({ kind: 'unauthenticated', message: MESSAGES.invalidAdminToken }));
      return;
    }
    next();
  };
}
