/**
 * How the twelve profiles are explained to the model: name, code and one line each.
 * Shared by the snap and the comms prompts, so both describe the taxonomy alike.
 */
import { PROFILES, type ProfileName } from '../../domain/profiles';

export const PROFILE_DESCRIPTIONS: Readonly<Record<ProfileName, string>> = {
  Trailblazer: 'pioneers untried paths; decisive, independent, quick to act on their own judgement.',
  Challenger: 'direct and competitive; questions assumptions and pushes hard for results.',
  Visionary: 'big-picture thinker; imagines future possibilities and rallies others toward them.',
  Catalyst: 'energetic initiator; sparks momentum and gets others moving.',
  Connector: 'relationship builder; links people, ideas and networks together.',
  Ambassador: 'persuasive and sociable; represents the group and wins support for it.',
  Nurturer: 'caring and supportive; attends to the wellbeing and growth of others.',
  Peacemaker: 'seeks harmony; patient, accommodating, calms conflict.',
  Steward: 'dependable and loyal; protects continuity, commitments and shared resources.',
  Systematizer: 'builds order; designs processes and values consistency and structure.',
  Precisionist: 'exacting and detail-minded; values accuracy, quality and standards.',
  Investigator: 'analytical and curious; researches deeply before drawing conclusions.',
};

/** One line per profile: `- Trailblazer (TB): …`. */
export function taxonomyLines(): string {
  return PROFILES.map((p) => `- ${p.name} (${p.code}): ${PROFILE_DESCRIPTIONS[p.name]}`).join('\n');
}
