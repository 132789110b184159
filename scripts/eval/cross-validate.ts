/**
 * `make eval-cv` (docs/evaluation.md): person-grouped k-fold cross-validation of the
 * embedded predictor on the development half only. The held-out half is never read.
 * Each fold's word weights are learned from the other folds' people and scored on the
 * fold's people (all three descriptions of a person are in the same fold), so the figures
 * say how the learned part does on people it has not seen. Folds are stratified by the
 * labelled primary and shuffled with SEED (printed; FOLDS sets k).
 */
import { PROFILE_NAMES, type Confidence } from '../../src/domain/profiles';
import { predictSnapEmbedded } from '../../src/upstream/embedded/snap-prediction';
import { learnedScores, type WordWeights } from '../../src/upstream/embedded/snap-word-weights';
import { toWords } from '../../src/upstream/embedded/snap-words';
import { WORD_WEIGHT_OPTIONS, learnWordWeights, type WordWeightOptions } from '../lexicon/learn-word-weights';
import { loadEvalSet, type LabelledPerson } from './eval-set';

interface Candidate {
  name: string;
  /** Undefined: no learned weights (the lexicon alone). */
  options?: WordWeightOptions;
}

/** The lexicon alone (the predictor before word weights), the committed options, and neighbours of them for comparison. */
const CANDIDATES: readonly Candidate[] = [
  { name: 'lexicon only' },
  ...[0.1, 0.2, 0.3, 0.5].map((scale) => ({ ...WORD_WEIGHT_OPTIONS, scale })).map((options) => ({ name: `lexicon + word weights ${describe(options)}`, options })),
  ...[1, 2].map((minPeople) => ({ ...WORD_WEIGHT_OPTIONS, minPeople })).map((options) => ({ name: `lexicon + word weights ${describe(options)}`, options })),
  { name: `lexicon + word weights ${describe({ ...WORD_WEIGHT_OPTIONS, smoothing: 1 })}`, options: { ...WORD_WEIGHT_OPTIONS, smoothing: 1 } },
];

function describe(options: WordWeightOptions): string {
  const committed = Object.entries(options).every(([key, value]) => WORD_WEIGHT_OPTIONS[key as keyof WordWeightOptions] === value);
  return `(scale ${options.scale}, min people ${options.minPeople}, smoothing ${options.smoothing})${committed ? ': committed' : ''}`;
}

/** mulberry32: a small seeded generator, so a seed gives the same folds on any machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fold of each person: shuffled within each primary, then dealt round the folds in turn. */
export function assignFolds(people: readonly LabelledPerson[], folds: number, seed: number): Map<string, number> {
  const next = random(seed);
  const fold = new Map<string, number>();
  let dealt = 0;
  for (const profile of PROFILE_NAMES) {
    const mine = people.filter((person) => person.primary === profile).map((person) => ({ person, key: next() }));
    mine.sort((a, b) => a.key - b.key);
    for (const { person } of mine) fold.set(person.id, dealt++ % folds);
  }
  return fold;
}

interface Tally {
  descriptions: number;
  top1: number;
  top2: number;
  /** The predicted secondary is an acceptable one, when the primary is right. */
  acceptableSecondary: number;
  abstained: number;
  agree: number;
  people: number;
  byConfidence: Record<Confidence, { right: number; of: number }>;
  noEvidenceAbstained: number;
  noEvidence: number;
}

function crossValidate(candidate: Candidate, people: readonly LabelledPerson[], noEvidence: readonly string[], folds: number, foldOf: Map<string, number>): Tally {
  const tally: Tally = { descriptions: 0, top1: 0, top2: 0, acceptableSecondary: 0, abstained: 0, agree: 0, people: 0, byConfidence: { High: { right: 0, of: 0 }, Medium: { right: 0, of: 0 }, Low: { right: 0, of: 0 } }, noEvidenceAbstained: 0, noEvidence: 0 };
  for (let fold = 0; fold < folds; fold += 1) {
    const training = people.filter((person) => foldOf.get(person.id) !== fold);
    const weights: WordWeights = new Map(candidate.options ? Object.entries(learnWordWeights(training, candidate.options)) : []);
    for (const person of people.filter((p) => foldOf.get(p.id) === fold)) {
      const primaries = person.descriptions.map((notes) => {
        const prediction = predictSnapEmbedded(person.jobType === undefined ? { notes } : { notes, jobType: person.jobType }, weights);
        tally.descriptions += 1;
        if (prediction.profile === null) tally.abstained += 1;
        else {
          const right = prediction.profile === person.primary;
          if (right) tally.top1 += 1;
          if (right || prediction.secondary_profile === person.primary) tally.top2 += 1;
          if (right && person.secondaries.some((secondary) => secondary === prediction.secondary_profile)) tally.acceptableSecondary += 1;
          const level = tally.byConfidence[prediction.confidence ?? 'Low'];
          level.of += 1;
          if (right) level.right += 1;
        }
        return prediction.profile;
      });
      tally.people += 1;
      if (primaries.every((primary) => primary === primaries[0])) tally.agree += 1;
    }
    noEvidence.forEach((notes, index) => {
      if (index % folds !== fold) return;
      tally.noEvidence += 1;
      if (predictSnapEmbedded({ notes }, weights).profile === null) tally.noEvidenceAbstained += 1;
    });
  }
  return tally;
}

/**
 * The learned weights on their own (the profile with the highest learned score, no
 * lexicon, never abstaining): what the learned part knows of people it has not seen,
 * free of the lexicon's fit to these texts.
 */
function crossValidateWeightsAlone(options: WordWeightOptions, people: readonly LabelledPerson[], folds: number, foldOf: Map<string, number>): { top1: number; descriptions: number; agree: number } {
  const result = { top1: 0, descriptions: 0, agree: 0 };
  for (let fold = 0; fold < folds; fold += 1) {
    const weights: WordWeights = new Map(Object.entries(learnWordWeights(people.filter((person) => foldOf.get(person.id) !== fold), options)));
    for (const person of people.filter((p) => foldOf.get(p.id) === fold)) {
      const primaries = person.descriptions.map((notes) => {
        const scores = learnedScores(toWords(notes), weights, PROFILE_NAMES.length);
        return PROFILE_NAMES[scores.indexOf(Math.max(...scores))];
      });
      result.descriptions += primaries.length;
      result.top1 += primaries.filter((primary) => primary === person.primary).length;
      if (primaries.every((primary) => primary === primaries[0])) result.agree += 1;
    }
  }
  return result;
}

const pct = (hits: number, of: number): string => (of === 0 ? 'none' : `${((100 * hits) / of).toFixed(1)}% (${hits}/${of})`);

function main(): void {
  const seed = Number(process.env.SEED ?? Date.now() % 100_000);
  const folds = Number(process.env.FOLDS ?? 5);
  const set = loadEvalSet();
  const people = set.people.filter((person) => person.half === 'dev');
  const noEvidence = set.noEvidence.filter((note) => note.half === 'dev').map((note) => note.notes);
  const foldOf = assignFolds(people, folds, seed);
  process.stdout.write(`SEED=${seed} FOLDS=${folds}: ${people.length} development people, grouped by person, stratified by primary\n\n`);
  process.stdout.write('| predictor | top-1 | top-2 | acceptable secondary | paraphrase agreement | false abstention | High / Medium / Low top-1 | no-evidence abstained |\n|---|---:|---:|---:|---:|---:|---|---:|\n');
  for (const candidate of CANDIDATES) {
    const t = crossValidate(candidate, people, noEvidence, folds, foldOf);
    const levels = (['High', 'Medium', 'Low'] as const).map((level) => pct(t.byConfidence[level].right, t.byConfidence[level].of)).join(' / ');
    process.stdout.write(`| ${candidate.name} | ${pct(t.top1, t.descriptions)} | ${pct(t.top2, t.descriptions)} | ${pct(t.acceptableSecondary, t.top1)} | ${pct(t.agree, t.people)} | ${pct(t.abstained, t.descriptions)} | ${levels} | ${pct(t.noEvidenceAbstained, t.noEvidence)} |\n`);
  }
  const alone = crossValidateWeightsAlone(WORD_WEIGHT_OPTIONS, people, folds, foldOf);
  process.stdout.write(`\nThe committed options' word weights alone (highest learned score, no lexicon, never abstaining): top-1 ${pct(alone.top1, alone.descriptions)}, paraphrase agreement ${pct(alone.agree, people.length)}.\n`);
}

if (require.main === module) main();
