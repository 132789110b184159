/**
 * The `comms_analysis` response format: commsResponse's own field names (openapi/openapi.yaml,
 * `POST /api/v1/snap/comms`). The 0–100 range of fit_score is stated in its description,
 * not as minimum/maximum, which not every OpenAI-compatible server accepts; the mapping
 * clamps it.
 */
import { PROFILE_CODES, PROFILE_NAMES } from '../../domain/profiles';
import {
  nullableEnum,
  nullableString,
  stringList,
  strictObject,
  type JsonSchema,
} from './json-schema-parts';

export const COMMS_SCHEMA_NAME = 'comms_analysis';

const DRAFT_ANALYSIS: JsonSchema = strictObject({
  fit_score: { type: 'integer', description: 'How well the draft suits the person, 0 to 100.' },
  issues: {
    type: 'array',
    items: strictObject({
      excerpt: { type: 'string', description: 'Text quoted exactly from the draft.' },
      suggestion: { type: 'string', description: 'What to write instead, and why.' },
    }),
  },
  rewrite: nullableString('The draft rewritten to suit the person.'),
});

export const COMMS_SCHEMA: JsonSchema = strictObject({
  profile: nullableEnum(PROFILE_NAMES, "The person's primary profile."),
  primary_code: nullableEnum(PROFILE_CODES, 'Code of the primary profile.'),
  summary: nullableString('How this person prefers to be communicated with.'),
  do: stringList('What to do.'),
  dont: stringList('What to avoid.'),
  phrases_to_use: stringList('Phrases likely to land well.'),
  phrases_to_avoid: stringList('Phrases likely to land badly.'),
  draft_analysis: {
    anyOf: [DRAFT_ANALYSIS, { type: 'null' }],
    description: 'Analysis of the draft; null when there is no draft.',
  },
});
