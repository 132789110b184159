/**
 * A profile as the model named it, made consistent with the taxonomy. The name decides:
 * a name outside the taxonomy reads as null and so does its code; a valid name always
 * gets its own code, whatever code the model sent (missing, unknown or contradicting).
 */
import { codeOf, isProfileName, type ProfileCode, type ProfileName } from '../../domain/profiles';

export interface ResolvedProfile {
  name: ProfileName | null;
  code: ProfileCode | null;
}

export function resolveProfile(name: unknown): ResolvedProfile {
  if (!isProfileName(name)) return { name: null, code: null };
  return { name, code: codeOf(name) };
}
