/**
 * The no-evidence detector (`snap-no-evidence.json`, written by `make snap-no-evidence`;
 * docs/evaluation.md says how it was learned and measured): for each word stem, how much
 * more often the evaluation set's no-evidence notes (admin, logistics, plain facts,
 * referrals, empty impressions) hold it than its descriptions of behaviour do, as a log
 * ratio. Notes whose stems read, on average, more like the no-evidence notes than like
 * descriptions get no profile when the evidence for one is weak (an answer below High):
 * one weak lexicon term in a note about a meeting's room and agenda is not behaviour.
 *
 * A text's stems are read as the word weights read them (`stemsAndPairs`), each once.
 */
import learned from './snap-no-evidence.json';

export interface NoEvidenceDetector {
  /** Stem → log(share of no-evidence notes holding it / share of descriptions holding it). */
  readonly ratios: ReadonlyMap<string, number>;
  /** The mean ratio above which notes read like no-evidence notes. */
  readonly threshold: number;
}

/** The detector as learned and written (`snap-no-evidence.json`), ready to look up. */
export function noEvidenceDetectorOf(file: { threshold: number; ratios: Record<string, number> }): NoEvidenceDetector {
  return { ratios: new Map(Object.entries(file.ratios)), threshold: file.threshold };
}

export const SNAP_NO_EVIDENCE: NoEvidenceDetector = noEvidenceDetectorOf({ threshold: learned.options.threshold, ratios: learned.ratios });

/** Whether a text's distinct stems read like a no-evidence note: their mean ratio (stems the detector knows) is above its threshold. */
export function readsLikeNoEvidence(stems: readonly string[], detector: NoEvidenceDetector): boolean {
  let sum = 0;
  let known = 0;
  for (const wordStem of stems) {
    const ratio = detector.ratios.get(wordStem);
    if (ratio === undefined) continue;
    sum += ratio;
    known += 1;
  }
  return known > 0 && sum / known > detector.threshold;
}
