/**
 * Tells a database outage from a bug, so the client gets 503 "try again" rather than 500:
 * the composition root (src/app/services.ts) gives `isDatabaseOutage` to the HTTP error
 * mapper, and the repositories let their errors through as the driver threw them.
 *
 * - `isDatabaseUnavailable`: the database could not be reached or its answer was lost
 *   (refused, reset, timed out, shutting down, out of connections). A statement that
 *   failed so may have committed (charge-lost-answer.ts looks it up).
 * - `isDatabaseOutage`: that, or the database answered that it cannot do the work now,
 *   through no fault of the request (SQLSTATE_CANNOT_NOW): the statement was rolled back.
 *
 * The shapes without a code are matched by their text, each from a named library:
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
/**
 * PostgreSQL answered, and the request is not at fault: class 53 (insufficient resources:
 * disk full, out of memory, too many connections), 57 (operator intervention: a cancelled
 * statement, a shutdown), 58 (system error: an I/O error), 25006 (a read-only transaction:
 * a standby, after a failover the service's address has not followed), 25P03 (idle in a
 * transaction past its timeout), 40001 and 40P01 (a serialization failure, a deadlock: try
 * again, as PostgreSQL's manual says) and 55P03 (a lock not had in `lock_timeout`).
 */
const SQLSTATE_CANNOT_NOW = /^(53|57|58|25006$|25P03$|40001$|40P01$|55P03$)/;
const MESSAGES_UNAVAILABLE = /^timeout expired$|Connection terminated|timeout exceeded when trying to connect|connection timeout|Client has encountered a connection error/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  return inChain(err, unreachable);
}

export function isDatabaseOutage(err: unknown): boolean {
  return inChain(err, (one) => unreachable(one) || SQLSTATE_CANNOT_NOW.test(codeOf(one)));
}

function unreachable(err: object): boolean {
  const code = codeOf(err);
  if (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code)) return true;
  const name = 'name' in err ? String(err.name) : '';
  const message = 'message' in err ? String(err.message) : '';
  return name === 'KnexTimeoutError' || MESSAGES_UNAVAILABLE.test(message);
}

function codeOf(err: object): string {
  return 'code' in err && typeof err.code === 'string' ? err.code : '';
}

/** Whether `err`, one of its causes, or (Node's connect to a name with several addresses fails with all of them at once) one of an AggregateError's errors passes `test`. */
function inChain(err: unknown, test: (one: object) => boolean, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  if (test(err)) return true;
  if (err instanceof AggregateError && err.errors.some((inner) => inChain(inner, test, depth + 1))) return true;
  return 'cause' in err && err.cause !== err && inChain(err.cause, test, depth + 1);
}
