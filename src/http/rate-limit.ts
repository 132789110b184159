/**
 * The request path's two rate limits (openapi/openapi.yaml, "Rate limit"), each a fixed
 * window counted by express-rate-limit in its store (Redis while available, else this
 * process: src/data/rate-limit/rate-limit-store.ts):
 * - step 5 of the request path (docs/architecture.md), per client IP, before the API key: sets X-RateLimit-Limit, -Remaining and
 *   -Reset (whole seconds until the window resets) on every response, and Retry-After on
 *   its 429;
 * - step 8, per account, once the key is accepted: the account's own limit or the
 *   default; its 429 carries Retry-After for the account's window, and the X-RateLimit-*
 *   headers stay the per-IP limit's.
 * Both describe themselves in the IETF draft headers RateLimit-Policy and RateLimit
 * (express-rate-limit's `standardHeaders: 'draft-8'`), as the policies "ip" and "account".
 */
import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type RateLimitInfo, type Store } from 'express-rate-limit';
import { AppError } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';

export interface RateLimitOptions {
  limit: number;
  windowSeconds: number;
  store: Store;
  /** Called for each request refused with 429 (metrics). */
  onLimited?: () => void;
}

/** The IPv6 prefix counted as one client IP. */
export const IPV6_CLIENT_PREFIX = 64;

export function rateLimitByIp(options: RateLimitOptions): RequestHandler[] {
  const limiter = rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.limit,
    store: options.store,
    standardHeaders: 'draft-8',
    identifier: 'ip',
    // An IPv6 client is its /64: one host's addresses (privacy addresses rotate within it),
    // as one IPv4 address is (openapi/openapi.yaml, "Rate limit"); not the library's default /56.
    ipv6Subnet: IPV6_CLIENT_PREFIX,
    legacyHeaders: false,
    // The app's "trust proxy" setting decides req.ip; the library's own check of it
    // warns about deliberate configurations, so it is off.
    validate: { trustProxy: false, xForwardedForHeader: false },
    handler: (req, res, next) => {
      options.onLimited?.();
      const resetSeconds = setRateLimitHeaders(req, res, options.windowSeconds);
      res.setHeader('Retry-After', String(resetSeconds));
      next(new AppError({ kind: 'rate_limited', message: MESSAGES.tooManyRequests }));
    },
  });
  const headers: RequestHandler = (req, res, next) => {
    setRateLimitHeaders(req, res, options.windowSeconds);
    next();
  };
  return [limiter, headers];
}

/** After the API key: `limit` is the default, an account's own limit (Caller.rateLimit) overrides it. */
export function rateLimitByAccount(options: RateLimitOptions): RequestHandler {
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: (req) => req.caller?.rateLimit ?? options.limit,
    keyGenerator: (req) => String(req.caller?.accountId),
    store: options.store,
    standardHeaders: 'draft-8',
    identifier: 'account',
    legacyHeaders: false,
    // Kept apart from the per-IP limit's `req.rateLimit`, which the X-RateLimit-* headers describe.
    requestPropertyName: 'accountRateLimit',
    handler: (req, _res, next) => {
      options.onLimited?.();
      const retryAfterSeconds = secondsToReset(req.accountRateLimit, options.windowSeconds);
      next(new AppError({ kind: 'rate_limited', message: MESSAGES.tooManyRequests, retryAfterSeconds }));
    },
  });
}

/** Whole seconds until the window of `info` ends (the whole window when it says nothing). */
export function secondsToReset(info: Pick<RateLimitInfo, 'resetTime'> | undefined, windowSeconds: number): number {
  return info?.resetTime ? Math.max(0, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000)) : windowSeconds;
}

function setRateLimitHeaders(req: Request, res: Response, windowSeconds: number): number {
  const info = req.rateLimit;
  if (!info) return windowSeconds;
  const resetSeconds = secondsToReset(info, windowSeconds);
  res.setHeader('X-RateLimit-Limit', String(info.limit));
  res.setHeader('X-RateLimit-Remaining', String(info.remaining));
  res.setHeader('X-RateLimit-Reset', String(resetSeconds));
  return resetSeconds;
}
