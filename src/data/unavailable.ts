/**
 * Tells a database outage (refused, reset, timed out, shutting down, out of connections)
 * from a bug, so the client gets 503 "try again" rather than 500: the composition root
 * (src/app/services.ts) gives this classifier to the HTTP error mapper, and the
 * repositories let their errors through as the driver threw them. The shapes without a
 * code are matched by their text, each from a named library:
 * - pg's connect timeout (`connectionTimeoutMillis`): `timeout expired`;
 * - pg's lost connection: `Connection terminated` (`unexpectedly`, `due to connection timeout`);
 * - pg-pool's checkout timeout: `timeout exceeded when trying to connect`;
 * - knex's pool acquisition timeout and its statement timeout (database.ts, `boundStatements`): a `KnexTimeoutError`.
 */
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
