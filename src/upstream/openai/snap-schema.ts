/**
 * The `snap_prediction` response format: snapResponse's own field names (DESIGN.md,
 * "Upstream"). The secondary enum leaves Visionary out so that strict servers cannot
 * produce it; a non-strict server still can, and the domain refuses it.
 */
import {
  CONFIDENCE_LEVELS,
  PROFILE_CODES,
  PROFILE_NAMES,
  RESTRICTED_SECONDARY,
} from '../../domain/profiles';
import { nullableEnum, nullableString, strictObject, type JsonSchema } from './json-schema-parts';

export const SNAP_SCHEMA_NAME = 'snap_prediction';

const SECONDARY_NAMES = PROFILE_NAMES.filter((name) => name !== RESTRICTED_SECONDARY);

export const SNAP_SCHEMA: JsonSchema = strictObject({
  profile: nullableEnum(PROFILE_NAMES, 'Primary profile name.'),
  primary_code: nullableEnum(PROFILE_CODES, 'Code of the primary profile.'),
  secondary_profile: nullableEnum(SECONDARY_NAMES, 'Secondary profile name; never Visionary.'),
  secondary_code: nullableEnum(PROFILE_CODES, 'Code of the secondary profile.'),
  confidence: nullableEnum(CONFIDENCE_LEVELS, 'How well the description supports the prediction.'),
  reasoning: nullableString('The evidence that led to the prediction.'),
  summary: nullableString('The person described in terms of the primary profile.'),
  secondary_profile_summary: nullableString('How the secondary profile shows.'),
});
