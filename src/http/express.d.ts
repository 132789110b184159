/** What our middleware adds to Express's request. */
import type { RateLimitInfo } from 'express-rate-limit';
import type { Caller } from '../domain/ports';

declare global {
  namespace Express {
    interface Request {
      /** Set by express-rate-limit (step 2). */
      rateLimit?: RateLimitInfo;
      /** Set by the API-key check (step 3). */
      caller?: Caller;
    }
  }
}

export {};
