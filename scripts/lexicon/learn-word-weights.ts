/**
 * How the embedded predictor's word weights (src/upstream/embedded/snap-word-weights.json)
 * are learned from labelled descriptions: naive Bayes over word stems. For each profile,
 * the chance that a stem appears in one of its descriptions (each distinct stem once per
 * description, add-`smoothing`), as a log, minus that stem's mean over the profiles, times
 * `scale`: a stem every profile uses weighs nothing, a stem one profile's people use
 * weighs for it and against the others. Stems fewer than `minPeople` people used are left
 * out (a word of one person's three descriptions is that person, not the profile). The
 * stems at least `standaloneShare` of the people used are `standalone`: only they count
 * when the weights alone decide whether notes with no lexicon term hold evidence. A
 * function word ("here", "from", "has": the `stopword` package's English list) weighs like
 * any stem beside other evidence, but is never standalone: with 363 people, "here" and
 * "from" alone gave a note about a move, a dog and a football club a profile.
 * A description's stems are read as the predictor reads them (`learnedStemsOf`).
 *
 * Deterministic: the same people and options give the same weights, rounded to 1/1000.
 */
import { PROFILE_NAMES, type ProfileName } from '../../src/domain/profiles';
import { neutralPositions } from '../../src/upstream/embedded/snap-prediction';
import { stemsAndPairs } from '../../src/upstream/embedded/snap-word-weights';
import { WordIndex, stemOf, toWords } from '../../src/upstream/embedded/snap-words';
import { eng } from 'stopword';
import { loadEvalSet } from '../eval/eval-set';

export interface LabelledTexts {
  id: string;
  primary: ProfileName;
  descriptions: readonly string[];
}

export interface WordWeightOptions {
  smoothing: number;
  minPeople: number;
  scale: number;
  /** The share of the people who must have used a stem for it to be standalone. */
  standaloneShare: number;
  /** Whether the stems of English function words (the `stopword` package's list: "here", "from", "has") may be standalone. */
  functionWordsStandalone: boolean;
}

export interface LearnedWordWeights {
  /** Stem → one weight per profile in taxonomy order; stems in code-unit order. */
  weights: Record<string, number[]>;
  /** The standalone stems, in code-unit order. */
  standalone: string[];
}

/** A description's distinct stems as the predictor reads them: not after a negation, not in an everyday phrase. */
export function learnedStemsOf(text: string): string[] {
  const index = new WordIndex(toWords(text));
  return stemsAndPairs(index, neutralPositions(index));
}

/** Chosen by person-grouped cross-validation on the development half (`make eval-cv`, docs/evaluation.md). */
export const WORD_WEIGHT_OPTIONS: WordWeightOptions = { smoothing: 0.5, minPeople: 3, scale: 0.4, standaloneShare: 0.02, functionWordsStandalone: false };

/** The stems of the `stopword` package's English function words. */
const STOPWORD_STEMS: ReadonlySet<string> = new Set(eng.map(stemOf));

export function learnWordWeights(people: readonly LabelledTexts[], options: WordWeightOptions = WORD_WEIGHT_OPTIONS): LearnedWordWeights {
  const peopleUsing = new Map<string, Set<string>>();
  const counts = new Map<string, number[]>();
  for (const person of people) {
    const profile = PROFILE_NAMES.indexOf(person.primary);
    for (const text of person.descriptions) {
      for (const wordStem of learnedStemsOf(text)) {
        const users = peopleUsing.get(wordStem) ?? new Set<string>();
        users.add(person.id);
        peopleUsing.set(wordStem, users);
        const row = counts.get(wordStem) ?? new Array<number>(PROFILE_NAMES.length).fill(0);
        row[profile] = (row[profile] ?? 0) + 1;
        counts.set(wordStem, row);
      }
    }
  }
  const vocabulary = [...counts.keys()].filter((wordStem) => (peopleUsing.get(wordStem)?.size ?? 0) >= options.minPeople).sort();
  const totals = PROFILE_NAMES.map((_, profile) => vocabulary.reduce((sum, wordStem) => sum + (counts.get(wordStem)?.[profile] ?? 0), 0));
  const weights: Record<string, number[]> = {};
  for (const wordStem of vocabulary) {
    const row = counts.get(wordStem) ?? [];
    const logs = totals.map((total, profile) => Math.log(((row[profile] ?? 0) + options.smoothing) / (total + options.smoothing * vocabulary.length)));
    const mean = logs.reduce((sum, value) => sum + value, 0) / logs.length;
    // `|| 0`: no -0 in the file.
    weights[wordStem] = logs.map((value) => Math.round((value - mean) * options.scale * 1000) / 1000 || 0);
  }
  const standalone = vocabulary.filter(
    (wordStem) => (peopleUsing.get(wordStem)?.size ?? 0) >= options.standaloneShare * people.length && (options.functionWordsStandalone || !STOPWORD_STEMS.has(wordStem)),
  );
  return { weights, standalone };
}

/** The committed file: the weights learned from every person of the evaluation set's development half. */
export function snapWordWeightsFile(): { source: string; options: WordWeightOptions; people: number } & LearnedWordWeights {
  const people = loadEvalSet().people.filter((person) => person.half === 'dev');
  return {
    source: 'eval/set, development half (odd ids), naive Bayes over Porter2 stems (scripts/lexicon/learn-word-weights.ts)',
    options: WORD_WEIGHT_OPTIONS,
    people: people.length,
    ...learnWordWeights(people),
  };
}
