/** What our middleware adds to Express's request. */
import type { RateLimitInfo } from 'express-rate-limit';
import type { Caller } from '../domain/ports';
import type { RequestTiming } from './server-timing';
import type { Logger } from '../support/logger';

declare global {
  namespace Express {
    interface Request {
      /** Set by the request log (step 1): the request id, echoed in `X-Request-Id`. */
      id: string;
      /** Set by the request log (step 1): the listener's logger. */
      log: Logger;
      /** Set by Server-Timing (step 1): when the request arrived, and its predictor's time. */
      timing?: RequestTiming;
      /** Set by express-rate-limit (step 2). */
      rateLimit?: RateLimitInfo;
      /** Set by the API-key check (step 3). */
      caller?: Caller;
      /** Set by express-rate-limit's per-account limit (after step 3). */
      accountRateLimit?: RateLimitInfo;
    }
  }
}

export {};
