/**
 * The behavioural profile taxonomy: twelve profiles, each with a two-letter code.
 * Visionary may be a primary profile, never a secondary one (openapi/openapi.yaml, `SecondaryProfileName`).
 */
export const PROFILES = [
  { code: 'TB', name: 'Trailblazer' },
  { code: 'CH', name: 'Challenger' },
  { code: 'VI', name: 'Visionary' },
  { code: 'CT', name: 'Catalyst' },
  { code: 'CN', name: 'Connector' },
  { code: 'AM', name: 'Ambassador' },
  { code: 'NU', name: 'Nurturer' },
  { code: 'PM', name: 'Peacemaker' },
  { code: 'SW', name: 'Steward' },
  { code: 'SY', name: 'Systematizer' },
  { code: 'PR', name: 'Precisionist' },
  { code: 'IV', name: 'Investigator' },
] as const;

export type Profile = (typeof PROFILES)[number];
export type ProfileName = Profile['name'];
export type ProfileCode = Profile['code'];

export const PROFILE_NAMES: readonly ProfileName[] = PROFILES.map((p) => p.name);
export const PROFILE_CODES: readonly ProfileCode[] = PROFILES.map((p) => p.code);

/** The one profile that may never be predicted as secondary, and its code. */
export const RESTRICTED_SECONDARY = 'Visionary' satisfies ProfileName;
export const RESTRICTED_SECONDARY_CODE = 'VI' satisfies ProfileCode;

export type SecondaryProfileName = Exclude<ProfileName, typeof RESTRICTED_SECONDARY>;
export type SecondaryProfileCode = Exclude<ProfileCode, typeof RESTRICTED_SECONDARY_CODE>;

export const CONFIDENCE_LEVELS = ['High', 'Medium', 'Low'] as const;
export type Confidence = (typeof CONFIDENCE_LEVELS)[number];

export function isProfileName(value: unknown): value is ProfileName {
  return typeof value === 'string' && (PROFILE_NAMES as readonly string[]).includes(value);
}

export function isProfileCode(value: unknown): value is ProfileCode {
  return typeof value === 'string' && (PROFILE_CODES as readonly string[]).includes(value);
}

export function isConfidence(value: unknown): value is Confidence {
  return typeof value === 'string' && (CONFIDENCE_LEVELS as readonly string[]).includes(value);
}

export function codeOf(name: ProfileName): ProfileCode {
  const profile = PROFILES.find((p) => p.name === name);
  if (!profile) throw new Error(`unknown profile ${name}`);
  return profile.code;
}

export function nameOf(code: ProfileCode): ProfileName {
  const profile = PROFILES.find((p) => p.code === code);
  if (!profile) throw new Error(`unknown profile code ${code}`);
  return profile.name;
}
