/**
 * What erasure by person matches on (docs/privacy.md): a SHA-256 of the account and the
 * person's name as the integrator sent it, normalised (Unicode NFKC, lower case, spaces
 * collapsed), stored beside each snap in `snaps.subject_digest`. Names are then found by
 * their digest, not searched as text: no index or query reads the names themselves.
 */
import { createHash } from 'node:crypto';

/** The name as compared: "  Ada   LOVELACE " and "ada lovelace" are one person. */
export function normalisedName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Hex SHA-256 of the account id and the normalised name; the same name in another account has another digest. */
export function subjectDigest(accountId: number, name: string): string {
  return createHash('sha256').update(`pps-subject-v1\n${accountId}\n${normalisedName(name)}`).digest('hex');
}
