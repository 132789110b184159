/**
 * The model's `snap_prediction` JSON → SnapPrediction. Lenient: a field missing or
 * unusable becomes null; texts are held to the spec's limits. A secondary profile of
 * Visionary passes through: the domain refuses it, so the rule lives in one place.
 */
import { isConfidence } from '../../domain/profiles';
import type { SnapPrediction } from '../../domain/ports';
import { boundSnapPrediction } from '../../domain/bounded-output';
import { readString, type JsonObject } from './read-json-values';
import { resolveProfile } from './resolve-profile';

export function mapSnapPrediction(json: JsonObject): SnapPrediction {
  const primary = resolveProfile(json['profile']);
  const secondary = resolveProfile(json['secondary_profile']);
  const confidence = json['confidence'];
  return boundSnapPrediction({
    profile: primary.name,
    primary_code: primary.code,
    secondary_profile: secondary.name,
    secondary_code: secondary.code,
    confidence: isConfidence(confidence) ? confidence : null,
    reasoning: readString(json['reasoning']),
    summary: readString(json['summary']),
    secondary_profile_summary: readString(json['secondary_profile_summary']),
  });
}
