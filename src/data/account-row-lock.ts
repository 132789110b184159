/**
 * How every statement that changes an account's credits locks the account's row first
 * (holds, releases, charges, the sweeper; each locks its accounts in id order):
 * `FOR NO KEY UPDATE`, the lock PostgreSQL's own UPDATE takes when no key changes.
 *
 * Not `FOR UPDATE`: that one also conflicts with the `FOR KEY SHARE` lock a foreign-key
 * check takes on the referenced account while a row pointing at it is inserted (a
 * charge's snap, comms or ledger row, a hold), and those inserts follow the batch's order,
 * not the accounts' id order. A charge batch and a hold batch over the same accounts could
 * then each wait for the other: PostgreSQL broke the cycle with `deadlock detected`
 * (40P01), and the request got a 500 (`make bench`, open-loop row, 10 accounts).
 * test/integration/account-row-lock.test.ts holds such a lock open and checks that none of
 * the statements waits for it.
 */
export const ACCOUNT_ROW_LOCK = 'FOR NO KEY UPDATE';
