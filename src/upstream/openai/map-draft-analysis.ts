/**
 * The model's `draft_analysis` → DraftAnalysis, or null when it is not an object.
 * fit_score is rounded and clamped to 0..100 (null when not a finite number); issues
 * that are not `{excerpt, suggestion}` strings are dropped.
 */
import type { DraftAnalysis, DraftIssue } from '../../domain/ports';
import { isJsonObject, readString } from './read-json-values';

export function mapDraftAnalysis(value: unknown): DraftAnalysis | null {
  if (!isJsonObject(value)) return null;
  return {
    fit_score: readFitScore(value['fit_score']),
    issues: readIssues(value['issues']),
    rewrite: readString(value['rewrite']),
  };
}

function readFitScore(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Math.min(100, Math.max(0, Math.round(value)));
}

function readIssues(value: unknown): DraftIssue[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown): DraftIssue[] => {
    if (!isJsonObject(item)) return [];
    const excerpt = readString(item['excerpt']);
    const suggestion = readString(item['suggestion']);
    return excerpt !== null && suggestion !== null ? [{ excerpt, suggestion }] : [];
  });
}
