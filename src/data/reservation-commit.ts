/**
 * Holds and their releases are reservations, not money: their statements commit without
 * waiting for PostgreSQL to flush the commit to disk (`synchronous_commit` off for that
 * transaction only, PostgreSQL's documented per-transaction setting). The charge, which
 * stores the result and is the money, still waits for the flush.
 *
 * What a crash of PostgreSQL can then lose is only its last fraction of a second of
 * reservations, each whole (a lost hold gives its credit back with it; nothing is ever
 * half-applied), and each already handled: the charging statement of a call whose hold is
 * gone takes an available credit instead (charge-statement.ts, steps 5–8), as it does
 * after the sweeper returned a hold; a lost release leaves the hold to the sweeper. What it
 * buys is one disk flush less on the path of every paid request (docs/decisions.md).
 *
 * A common table expression of the statement itself, so that it costs no round trip; the
 * statement must reference it (`CROSS JOIN reservation_commit`) for it to run.
 * test/integration/reservation-commit.test.ts checks that neither statement waits for the
 * commit to be flushed, and that a charge does.
 */
export const RESERVATION_COMMIT = `reservation_commit AS (SELECT set_config('synchronous_commit', 'off', true))`;
