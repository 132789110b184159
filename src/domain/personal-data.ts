/**
 * Erasure and export of the personal data stored about the people described in snaps
 * (docs/privacy.md): one snap, everything of one account, or everything about one person
 * within an account. Each erasure is complete when it returns, can be repeated, leaves
 * the ledger alone and leaves an audit record without personal data.
 */
import { AppError } from './app-error';
import { MESSAGES } from './messages';
import type { ErasureActor, ErasureRecord, PersonalDataRepository } from './ports';

export function eraseSnap(data: PersonalDataRepository, snapId: number, actor: ErasureActor): Promise<ErasureRecord> {
  return data.eraseSnap(snapId, actor);
}

export async function eraseAccountData(data: PersonalDataRepository, accountId: number, actor: ErasureActor): Promise<ErasureRecord> {
  return (await data.eraseAccount(accountId, actor)) ?? accountNotFound();
}

export async function erasePerson(data: PersonalDataRepository, accountId: number, name: string, actor: ErasureActor): Promise<ErasureRecord> {
  return (await data.erasePerson(accountId, name, actor)) ?? accountNotFound();
}

export async function exportPersonalData(data: PersonalDataRepository, accountId: number, name?: string): Promise<AsyncIterable<string>> {
  return (await data.exportAccount(accountId, name)) ?? accountNotFound();
}

function accountNotFound(): never {
  throw new AppError({ kind: 'not_found', message: MESSAGES.accountNotFound });
}
