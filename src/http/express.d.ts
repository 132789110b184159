/** What our middleware adds to Express's request. */
import type { RateLimitInfo } from 'express-rate-limit';
import type { Caller } from '../domain/ports';
import type { RequestTiming } from './server-timing';
import type { Logger } from '../support/logger';

declare global {
  namespace Express {
    interface Request {
      /** Set by the request log (step 2 of the request path, docs/architecture.md): the request id, echoed in `X-Request-Id`. */
      id: string;
      /** Set by the request log (step 2): the listener's logger. */
      log: Logger;
      /** Set by Server-Timing (step 1): when the request arrived, and its predictor's time. */
      timing?: RequestTiming;
      /** Set by express-rate-limit's per-IP limit (step 5). */
      rateLimit?: RateLimitInfo;
      /** Set by the API-key check (step 7). */
      caller?: Caller;
      /** Set by express-rate-limit's per-account limit (step 8). */
      accountRateLimit?: RateLimitInfo;
    }
  }
}

export {};
