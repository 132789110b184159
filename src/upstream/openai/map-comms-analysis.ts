/**
 * The model's `comms_analysis` JSON → CommsAnalysis. Lenient: a field missing or
 * unusable becomes null, a list becomes []; texts and lists are held to the spec's
 * limits. Without a draft in the request, draft_analysis is null whatever the model sent.
 */
import type { CommsAnalysis } from '../../domain/ports';
import { boundCommsAnalysis } from '../../domain/bounded-output';
import { mapDraftAnalysis } from './map-draft-analysis';
import { readString, readStringList, type JsonObject } from './read-json-values';
import { resolveProfile } from './resolve-profile';

export function mapCommsAnalysis(json: JsonObject, request: { hasDraft: boolean }): CommsAnalysis {
  const primary = resolveProfile(json['profile']);
  return boundCommsAnalysis({
    profile: primary.name,
    primary_code: primary.code,
    summary: readString(json['summary']),
    do: readStringList(json['do']),
    dont: readStringList(json['dont']),
    phrases_to_use: readStringList(json['phrases_to_use']),
    phrases_to_avoid: readStringList(json['phrases_to_avoid']),
    draft_analysis: request.hasDraft ? mapDraftAnalysis(json['draft_analysis']) : null,
  });
}
