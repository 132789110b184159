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
 *
 * Once its key is known, one account works on at most `maxInFlightPerAccount` of them
 * (`accountAdmission`): past it the account is answered the contract's `429` with
 * `Retry-After`, so that one account's slow calls cannot take every slot of a process
 * while another account waits.
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

export interface AccountAdmissionOptions {
  maxInFlightPerAccount: number;
  retryAfterSeconds: number;
  /** Called for each request refused with 429 because its account had that many in flight. */
  onRefused?: () => void;
}

/** After the key check: at most `maxInFlightPerAccount` requests of one account at once in this process. */
export function accountAdmission(options: AccountAdmissionOptions): RequestHandler {
  const inFlight = new Map<number, number>();
  return (req, res, next) => {
    const accountId = req.caller?.accountId;
    if (accountId === undefined) {
      next();
      return;
    }
    const count = inFlight.get(accountId) ?? 0;
    if (count >= options.maxInFlightPerAccount) {
      options.onRefused?.();
      next(new AppError({ kind: 'rate_limited', message: MESSAGES.tooManyRequests, retryAfterSeconds: options.retryAfterSeconds }));
      return;
    }
    inFlight.set(accountId, count + 1);
    res.once('close', () => {
      const left = (inFlight.get(accountId) ?? 1) - 1;
      if (left === 0) inFlight.delete(accountId);
      else inFlight.set(accountId, left);
    });
    next();
  };
}
