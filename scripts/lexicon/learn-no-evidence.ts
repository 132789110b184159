/**
 * How the embedded predictor's no-evidence detector (src/upstream/embedded/snap-no-evidence.json)
 * is learned from the evaluation set's development half: for each word stem, the share of
 * the no-evidence notes holding it against the share of the descriptions holding it
 * (add-`smoothing` to each count, each text's distinct stems once), as a log ratio. Stems
 * fewer than `minTexts` texts hold are left out. The notes' and descriptions' stems are
 * read as the predictor reads them (`learnedStemsOf`).
 *
 * Deterministic: the same texts and options give the same ratios, rounded to 1/1000.
 */
import { loadEvalSet, type EvalSet } from '../eval/eval-set';
import { learnedStemsOf } from './learn-word-weights';

export interface NoEvidenceOptions {
  smoothing: number;
  minTexts: number;
  /** The mean ratio above which notes read like no-evidence notes. */
  threshold: number;
}

export interface LearnedNoEvidence {
  threshold: number;
  /** Stem → log ratio, stems in code-unit order. */
  ratios: Record<string, number>;
}

/** Chosen by person-grouped cross-validation on the development half (`make eval-cv`, docs/evaluation.md). */
export const NO_EVIDENCE_OPTIONS: NoEvidenceOptions = { smoothing: 0.5, minTexts: 2, threshold: -0.5 };

/** How many of the texts hold each stem. */
function textsHolding(texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) for (const wordStem of learnedStemsOf(text)) counts.set(wordStem, (counts.get(wordStem) ?? 0) + 1);
  return counts;
}

export function learnNoEvidence(descriptions: readonly string[], notes: readonly string[], options: NoEvidenceOptions = NO_EVIDENCE_OPTIONS): LearnedNoEvidence {
  const inNotes = textsHolding(notes);
  const inDescriptions = textsHolding(descriptions);
  const share = (count: number, texts: number): number => (count + options.smoothing) / (texts + 2 * options.smoothing);
  const ratios: Record<string, number> = {};
  for (const wordStem of [...new Set([...inNotes.keys(), ...inDescriptions.keys()])].sort()) {
    const noteCount = inNotes.get(wordStem) ?? 0;
    const descriptionCount = inDescriptions.get(wordStem) ?? 0;
    if (noteCount + descriptionCount < options.minTexts) continue;
    // `|| 0`: no -0 in the file.
    ratios[wordStem] = Math.round(Math.log(share(noteCount, notes.length) / share(descriptionCount, descriptions.length)) * 1000) / 1000 || 0;
  }
  return { threshold: options.threshold, ratios };
}

/** The committed file: the detector learned from the evaluation set's development half (its descriptions and no-evidence notes). */
export function snapNoEvidenceFile(set: EvalSet = loadEvalSet()): { source: string; options: NoEvidenceOptions; descriptions: number; notes: number; ratios: LearnedNoEvidence['ratios'] } {
  const descriptions = set.people.filter((person) => person.half === 'dev').flatMap((person) => person.descriptions);
  const notes = set.noEvidence.filter((note) => note.half === 'dev').map((note) => note.notes);
  return {
    source: 'eval/set, development half (odd ids): its no-evidence notes against its descriptions (scripts/lexicon/learn-no-evidence.ts)',
    options: NO_EVIDENCE_OPTIONS,
    descriptions: descriptions.length,
    notes: notes.length,
    // The threshold is the options' own: not written twice.
    ratios: learnNoEvidence(descriptions, notes).ratios,
  };
}
