/**
 * A prediction held to the limits of openapi/openapi.yaml (`SnapResponse`,
 * `CommsResponse`), so that what is stored, returned and replayed always validates,
 * whatever the model wrote. Both predictors pass their results through here.
 *
 * A text over its limit is cut at a word boundary and ends with an ellipsis, inside the
 * limit; a list keeps its first items. Limits count UTF-16 code units, which is never
 * fewer than the code points the spec's `maxLength` counts, and a cut never splits a
 * surrogate pair.
 */
import type { CommsAnalysis, DraftAnalysis, DraftIssue, SnapPrediction } from './ports';

/** The spec's `maxLength` and `maxItems` of generated fields (test/unit checks them against the spec). */
export const OUTPUT_LIMITS = {
  /** `NullableText`: reasoning, summaries. */
  textChars: 10_000,
  /** `AdviceList` items. */
  adviceChars: 1_000,
  /** `AdviceList` and `DraftAnalysis.issues`. */
  listItems: 50,
  excerptChars: 5_000,
  suggestionChars: 1_000,
  rewriteChars: 10_000,
} as const;

const ELLIPSIS = '…';

/**
 * `text` when it fits in `maxChars`; otherwise its start, cut at the last whitespace
 * in the second half of the limit (or, with none there, at the limit itself), with
 * trailing whitespace dropped and an ellipsis added, `maxChars` long at most.
 */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const room = maxChars - ELLIPSIS.length;
  const lastSpace = text.slice(0, room + 1).search(/\s\S*$/u);
  let cut = lastSpace >= room / 2 ? lastSpace : room;
  if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
}

/** The first `maxItems` of `items`. */
export function firstItems<T>(items: readonly T[], maxItems: number = OUTPUT_LIMITS.listItems): T[] {
  return items.slice(0, maxItems);
}

export function boundSnapPrediction(prediction: SnapPrediction): SnapPrediction {
  return {
    ...prediction,
    reasoning: boundNullable(prediction.reasoning, OUTPUT_LIMITS.textChars),
    summary: boundNullable(prediction.summary, OUTPUT_LIMITS.textChars),
    secondary_profile_summary: boundNullable(prediction.secondary_profile_summary, OUTPUT_LIMITS.textChars),
  };
}

export function boundCommsAnalysis(analysis: CommsAnalysis): CommsAnalysis {
  return {
    ...analysis,
    summary: boundNullable(analysis.summary, OUTPUT_LIMITS.textChars),
    do: boundAdvice(analysis.do),
    dont: boundAdvice(analysis.dont),
    phrases_to_use: boundAdvice(analysis.phrases_to_use),
    phrases_to_avoid: boundAdvice(analysis.phrases_to_avoid),
    draft_analysis: analysis.draft_analysis && boundDraftAnalysis(analysis.draft_analysis),
  };
}

function boundDraftAnalysis(draft: DraftAnalysis): DraftAnalysis {
  return {
    ...draft,
    issues: firstItems(draft.issues).map(
      (issue): DraftIssue => ({
        excerpt: truncateText(issue.excerpt, OUTPUT_LIMITS.excerptChars),
        suggestion: truncateText(issue.suggestion, OUTPUT_LIMITS.suggestionChars),
      }),
    ),
    rewrite: boundNullable(draft.rewrite, OUTPUT_LIMITS.rewriteChars),
  };
}

function boundAdvice(items: readonly string[]): string[] {
  return firstItems(items).map((item) => truncateText(item, OUTPUT_LIMITS.adviceChars));
}

function boundNullable(text: string | null, maxChars: number): string | null {
  return text === null ? null : truncateText(text, maxChars);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
