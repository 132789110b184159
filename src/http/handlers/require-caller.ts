import type { Caller } from '../../domain/ports';

/** The API-key check runs before every public handler; a missing caller is a wiring bug. */
export function requireCaller(caller: Caller | undefined): Caller {
  if (!caller) throw new Error('public operation reached without an authenticated caller');
  return caller;
}
