/**
 * The `snap_prediction` response format: snapResponse's own field names (openapi/openapi.yaml,
 * `SnapResponse`). The secondary enums leave Visionary and VI out so that strict servers
 * cannot produce them; a non-strict server still can, and the domain refuses it.
 * `reasoning` comes first: models write keys in schema order, so the evidence is
 * written before the verdict.
 */
import {
  CONFIDENCE_LEVELS,
  PROFILE_CODES,
  PROFILE_NAMES,
  RESTRICTED_SECONDARY,
  RESTRICTED_SECONDARY_CODE,
} from '../../domain/profiles';
import { nullableEnum, nullableString, strictObject, type JsonSchema } from './json-schema-parts';

export const SNAP_SCHEMA_NAME = 'snap_prediction';

const SECONDARY_NAMES = PROFILE_NAMES.filter((name) => name !== RESTRICTED_SECONDARY);
const SECONDARY_CODES = PROFILE_CODES.filter((code) => code !== RESTRICTED_SECONDARY_CODE);

export const SNAP_SCHEMA: JsonSchema = strictObject({
  reasoning: nullableString('The evidence in the description that leads to the prediction.'),
  profile: nullableEnum(PROFILE_NAMES, 'Primary profile name.'),
  primary_code: nullableEnum(PROFILE_CODES, 'Code of the primary profile.'),
  secondary_profile: nullableEnum(SECONDARY_NAMES, 'Secondary profile name; never Visionary.'),
  secondary_code: nullableEnum(SECONDARY_CODES, 'Code of the secondary profile; never VI.'),
  confidence: nullableEnum(CONFIDENCE_LEVELS, 'How well the description supports the prediction.'),
  summary: nullableString('The person described in terms of the primary profile.'),
  secondary_profile_summary: nullableString('How the secondary profile shows.'),
});
