/**
 * Tells a database outage (refused, reset, timed out, shutting down) from a bug, so the
 * client gets 503 "try again" rather than 500.
 */
import { AppError } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
/** PostgreSQL SQLSTATE classes 08 (connection) and 57P (operator intervention: shutdown). */
const SQLSTATE_UNAVAILABLE = /^(08|57P0[123])/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : '';
  if (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code)) return true;
  const name = 'name' in err ? String(err.name) : '';
  const message = 'message' in err ? String(err.message) : '';
  if (name === 'KnexTimeoutError') return true;
  if (/Connection terminated|connection timeout|Client has encountered a connection error/i.test(message)) return true;
  return 'cause' in err && err.cause !== err && isDatabaseUnavailable(err.cause);
}

/**
 * The repository as given, except that a database outage leaves each of its methods as
 * the domain's `unavailable` error (the contract's 503), so that no layer above this one
 * needs to know what a PostgreSQL outage looks like. Applied by the composition root.
 */
export function reportingOutages<T extends object>(repository: T): T {
  return new Proxy(repository, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const result: unknown = value.apply(target, args);
          return result instanceof Promise ? result.catch(rethrowOutage) : result;
        } catch (err) {
          return rethrowOutage(err);
        }
      };
    },
  });
}

function rethrowOutage(err: unknown): never {
  if (isDatabaseUnavailable(err)) throw new AppError({ kind: 'unavailable', message: MESSAGES.serviceUnavailable, cause: err });
  throw err;
}
