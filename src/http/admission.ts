/**
 * Admission control (docs/operations.md, "Overload"): at most `maxInFlight` requests of the public
 * API are worked on at once in this process. One more is answered `503` with
 * `Retry-After` at once, before the API-key lookup and any other database work: a cheap,
 * early answer that tells the client when to come back (Google SRE, "Handling
 * Overload"), instead of a queue in front of the pool and the upstream that every client
 * waits in until it times out.
 *
 * A request leaves the count when its response closes: answered, or its client gone.
 *
 * While the process shuts down (`draining`), every new request is answered the same
 * `503` with `Retry-After` (and `Connection: close`, app/drain.ts): it was not started,
 * and another instance can serve it.
 */
import type { RequestHandler } from 'express';
import { AppError } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';

export interface AdmissionOptions {
  maxInFlight: number;
  retryAfterSeconds: number;
  /** Told of every request admitted (+1) and of every one that left (-1). */
  onCount?: (delta: 1 | -1) => void;
  /** Called for each request shed with 503 because too many were in flight. */
  onShed?: () => void;
  /** True while the process shuts down. */
  draining?: () => boolean;
}

export function admissionControl(options: AdmissionOptions): RequestHandler {
  let inFlight = 0;
  const leave = (): void => {
    inFlight -= 1;
    options.onCount?.(-1);
  };
  const shed = () => new AppError({ kind: 'overloaded', message: MESSAGES.serviceUnavailable, retryAfterSeconds: options.retryAfterSeconds });
  return (_req, res, next) => {
    if (options.draining?.()) {
      next(shed());
      return;
    }
    if (inFlight >= options.maxInFlight) {
      options.onShed?.();
      next(shed());
      return;
    }
    inFlight += 1;
    options.onCount?.(1);
    res.once('close', leave);
    next();
  };
}
