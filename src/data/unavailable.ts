/**
 * Tells a database outage (refused, reset, timed out, shutting down, out of connections)
 * from a bug, so the client gets 503 "try again" rather than 500. The shapes without a
 * code are matched by their text, each from a named library:
 * - pg's connect timeout (`connectionTimeoutMillis`): `timeout expired`;
 * - pg's lost connection: `Connection terminated` (`unexpectedly`, `due to connection timeout`);
 * - pg-pool's checkout timeout: `timeout exceeded when trying to connect`;
 * - knex's pool acquisition timeout: a `KnexTimeoutError`.
 */
import { AppError } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
  'ENETDOWN',
]);
/**
 * PostgreSQL SQLSTATE class 08 (connection), 53300 (too many connections), 57P01–57P03
 * (shutting down, crashed, not yet accepting connections).
 */
const SQLSTATE_UNAVAILABLE = /^(08|53300$|57P0[123])/;
const MESSAGES_UNAVAILABLE = /^timeout expired$|Connection terminated|timeout exceeded when trying to connect|connection timeout|Client has encountered a connection error/i;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : '';
  if (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code)) return true;
  const name = 'name' in err ? String(err.name) : '';
  const message = 'message' in err ? String(err.message) : '';
  if (name === 'KnexTimeoutError' || MESSAGES_UNAVAILABLE.test(message)) return true;
  // Node's connect to a name with several addresses fails with all of them at once.
  if (err instanceof AggregateError && err.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return 'cause' in err && err.cause !== err && isDatabaseUnavailable(err.cause, depth + 1);
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
