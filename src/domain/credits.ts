/** The credit rule: checked before any work, charged only with a stored result. */
import { AppError } from './app-error';
import { MESSAGES } from './messages';
import type { CreditsRepository } from './ports';

export async function assertHasCredit(credits: CreditsRepository, accountId: number): Promise<void> {
  if ((await credits.balanceOf(accountId)) < 1) throw insufficientCredits();
}

export function insufficientCredits(): AppError {
  return new AppError({ kind: 'insufficient_credits', message: MESSAGES.insufficientCredits });
}
