/**
 * Step 2 of the request path: a fixed window of `limit` requests per client IP.
 * Sets X-RateLimit-Limit, -Remaining and -Reset (whole seconds until the window
 * resets) on every response, and Retry-After on a 429 (openapi/openapi.yaml, `TooManyRequests`).
 */
import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { AppError } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';

export interface RateLimitOptions {
  limit: number;
  windowSeconds: number;
  store: Store;
  /** Called for each request refused with 429 (metrics). */
  onLimited?: () => void;
}

export function rateLimitByIp(options: RateLimitOptions): RequestHandler[] {
  const limiter = rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.limit,
    store: options.store,
    standardHeaders: false,
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

function setRateLimitHeaders(req: Request, res: Response, windowSeconds: number): number {
  const info = req.rateLimit;
  if (!info) return windowSeconds;
  const resetSeconds = info.resetTime ? Math.max(0, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000)) : windowSeconds;
  res.setHeader('X-RateLimit-Limit', String(info.limit));
  res.setHeader('X-RateLimit-Remaining', String(info.remaining));
  res.setHeader('X-RateLimit-Reset', String(resetSeconds));
  return resetSeconds;
}
