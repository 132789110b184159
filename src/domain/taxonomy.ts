/**
 * A prediction held to the taxonomy (openapi/openapi.yaml, SnapResponse): whatever a
 * model wrote, what is stored and returned obeys these rules, applied in this order:
 * - `name-decides-code`: a profile name and its code that disagree: the name decides
 *   the code; a code without a name gives the name;
 * - `secondary-equals-primary`: a secondary profile equal to the primary is no
 *   secondary: it becomes null, with its code and its summary, and the confidence is
 *   Low (an answer that could not name two profiles is not a confident one);
 * - `no-profile-no-secondary`: without a profile (none given, or none the taxonomy has),
 *   there is no profile at all: the secondary, its code and both summaries are null, and
 *   the confidence is Low, as when the notes hold no evidence.
 * The create-snap use case applies them; the metrics decorator counts each rule that
 * had to be applied (`predictions_repaired_total`).
 */
import type { SnapPrediction } from './ports';
import { codeOf, nameOf, type ProfileCode, type ProfileName } from './profiles';

export const TAXONOMY_RULES = ['name-decides-code', 'secondary-equals-primary', 'no-profile-no-secondary'] as const;
export type TaxonomyRule = (typeof TAXONOMY_RULES)[number];

export interface HeldToTaxonomy {
  prediction: SnapPrediction;
  /** The rules that changed something, each once. */
  repairs: TaxonomyRule[];
}

export function heldToTaxonomy(given: SnapPrediction): HeldToTaxonomy {
  const repairs = new Set<TaxonomyRule>();
  const pair = (givenName: ProfileName | null | undefined, givenCode: ProfileCode | null | undefined): [ProfileName | null, ProfileCode | null] => {
    const [name, code] = [givenName ?? null, givenCode ?? null];
    const agreed: [ProfileName | null, ProfileCode | null] = name !== null ? [name, codeOf(name)] : [code === null ? null : nameOf(code), code];
    if (agreed[0] !== name || agreed[1] !== code) repairs.add('name-decides-code');
    return agreed;
  };
  const [profile, primary_code] = pair(given.profile, given.primary_code);
  let [secondary_profile, secondary_code] = pair(given.secondary_profile, given.secondary_code);
  let { summary, secondary_profile_summary, confidence } = given;
  if (secondary_profile !== null && secondary_profile === profile) {
    repairs.add('secondary-equals-primary');
    [secondary_profile, secondary_code, secondary_profile_summary, confidence] = [null, null, null, 'Low'];
  }
  if (profile === null && [secondary_profile, secondary_code, summary, secondary_profile_summary].some((field) => field !== null)) {
    repairs.add('no-profile-no-secondary');
    [secondary_profile, secondary_code, summary, secondary_profile_summary] = [null, null, null, null];
  }
  if (profile === null) confidence = 'Low';
  return { prediction: { ...given, profile, primary_code, secondary_profile, secondary_code, summary, secondary_profile_summary, confidence }, repairs: [...repairs] };
}
