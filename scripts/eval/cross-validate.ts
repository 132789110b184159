/**
 * `make eval-cv` (docs/evaluation.md): person-grouped k-fold cross-validation of the
 * embedded predictor on the development half only. The held-out half is never read.
 * Each fold's word weights are learned from the other folds' people and scored on the
 * fold's people (all three descriptions of a person are in the same fold), so the figures
 * say how the learned part does on people it has not seen. Folds are stratified by the
 * labelled primary and shuffled with SEED (printed; FOLDS sets k). The folds' predictions
 * become the call results `make eval` would record, and `measureHalf` (measures.ts)
 * measures them: one definition of each measure for both.
 */
import { PROFILE_NAMES } from '../../src/domain/profiles';
import { predictSnapEmbedded } from '../../src/upstream/embedded/snap-prediction';
import { learnedScores, type WordWeights } from '../../src/upstream/embedded/snap-word-weights';
import { toWords } from '../../src/upstream/embedded/snap-words';
import { WORD_WEIGHT_OPTIONS, learnWordWeights, type WordWeightOptions } from '../lexicon/learn-word-weights';
import { seededRandom, type SeededRandom } from '../../test/support/seeded-random';
import type { AnonymousSubject } from '../../src/domain/ports';
import { loadEvalSet, type LabelledPerson, type NoEvidenceNote } from './eval-set';
import { measureHalf, type Ratio } from './measures';
import type { PlannedCall } from './plan';
import type { CallResult, Prediction } from './run-calls';

/** What is learned from the training folds, and how a description is predicted with it. */
export interface Model<Learned> {
  name: string;
  learn(training: readonly LabelledPerson[]): Learned;
  predict(subject: AnonymousSubject, learned: Learned): Prediction;
}

const NO_WEIGHTS: WordWeights = new Map();

/** The embedded predictor with word weights learned by `options` (none: the lexicon alone). */
function embedded(name: string, options?: WordWeightOptions): Model<WordWeights> {
  return {
    name,
    learn: (training) => (options ? new Map(Object.entries(learnWordWeights(training, options))) : NO_WEIGHTS),
    predict: (subject, weights) => predictSnapEmbedded(subject, weights),
  };
}

/**
 * The learned weights on their own (the profile with the highest learned score, no
 * lexicon, never abstaining, no secondary or confidence): what the learned part knows of
 * people it has not seen, free of the lexicon's fit to these texts.
 */
function weightsAlone(name: string, options: WordWeightOptions): Model<WordWeights> {
  return {
    name,
    learn: (training) => new Map(Object.entries(learnWordWeights(training, options))),
    predict: (subject, weights) => {
      const scores = learnedScores(toWords(subject.notes), weights, PROFILE_NAMES.length);
      const profile = PROFILE_NAMES[scores.indexOf(Math.max(...scores))] ?? null;
      return { profile, secondary_profile: null, confidence: null, reasoning: null, summary: null, secondary_profile_summary: null };
    },
  };
}

/** The lexicon alone (the predictor before word weights), the committed options, and neighbours of them for comparison. */
const CANDIDATES: readonly Model<WordWeights>[] = [
  embedded('lexicon only'),
  ...[0.1, 0.2, 0.3, 0.5].map((scale) => ({ ...WORD_WEIGHT_OPTIONS, scale })).map((options) => embedded(`lexicon + word weights ${describe(options)}`, options)),
  ...[1, 2].map((minPeople) => ({ ...WORD_WEIGHT_OPTIONS, minPeople })).map((options) => embedded(`lexicon + word weights ${describe(options)}`, options)),
  embedded(`lexicon + word weights ${describe({ ...WORD_WEIGHT_OPTIONS, smoothing: 1 })}`, { ...WORD_WEIGHT_OPTIONS, smoothing: 1 }),
];

function describe(options: WordWeightOptions): string {
  const committed = Object.entries(options).every(([key, value]) => WORD_WEIGHT_OPTIONS[key as keyof WordWeightOptions] === value);
  return `(scale ${options.scale}, min people ${options.minPeople}, smoothing ${options.smoothing})${committed ? ': committed' : ''}`;
}

/** Fold of each person: shuffled within each primary, then dealt round the folds in turn. */
export function assignFolds(people: readonly LabelledPerson[], folds: number, random: SeededRandom): Map<string, number> {
  const next = (): number => random.next();
  const fold = new Map<string, number>();
  let dealt = 0;
  for (const profile of PROFILE_NAMES) {
    const mine = people.filter((person) => person.primary === profile).map((person) => ({ person, key: next() }));
    mine.sort((a, b) => a.key - b.key);
    for (const { person } of mine) fold.set(person.id, dealt++ % folds);
  }
  return fold;
}

/**
 * Each fold predicted with what the model learned from the other folds' people, as the
 * call results of the development half that `make eval` would record (201s, no tokens, no
 * time): each description under the person's first name and job title, and each
 * no-evidence note, dealt round the folds, once.
 */
export function crossValidationResults<Learned>(
  model: Model<Learned>,
  people: readonly LabelledPerson[],
  noEvidence: readonly NoEvidenceNote[],
  folds: number,
  foldOf: ReadonlyMap<string, number>,
): CallResult[] {
  const results: CallResult[] = [];
  const predicted = (purpose: 'description' | 'no-evidence', itemId: string, description: number, body: PlannedCall['body'], learned: Learned): CallResult => {
    const prediction = model.predict(body.jobType === undefined ? { notes: body.notes } : { notes: body.notes, jobType: body.jobType }, learned);
    return { call: { half: 'dev', purpose, itemId, description, body }, status: 201, seconds: 0, tokens: 0, prediction };
  };
  for (let fold = 0; fold < folds; fold += 1) {
    const learned = model.learn(people.filter((person) => foldOf.get(person.id) !== fold));
    for (const person of people.filter((p) => foldOf.get(p.id) === fold)) {
      person.descriptions.forEach((notes, description) => {
        const body = { name: person.names[0] ?? '', notes, ...(person.jobType === undefined ? {} : { jobType: person.jobType }) };
        results.push(predicted('description', person.id, description, body, learned));
      });
    }
    noEvidence.forEach((note, index) => {
      if (index % folds === fold) results.push(predicted('no-evidence', note.id, 0, { name: note.name, notes: note.notes }, learned));
    });
  }
  return results;
}

const pct = ({ hits, of }: Ratio): string => (of === 0 ? 'none' : `${((100 * hits) / of).toFixed(1)}% (${hits}/${of})`);

function main(): void {
  const random = seededRandom('make eval-cv');
  const folds = Number(process.env.FOLDS ?? 5);
  const set = loadEvalSet();
  const people = set.people.filter((person) => person.half === 'dev');
  const noEvidence = set.noEvidence.filter((note) => note.half === 'dev');
  const foldOf = assignFolds(people, folds, random);
  process.stdout.write(`SEED=${random.seed} FOLDS=${folds}: ${people.length} development people, grouped by person, stratified by primary\n\n`);
  process.stdout.write('| predictor | top-1 | top-2 | acceptable secondary | paraphrase agreement | false abstention | High / Medium / Low top-1 | no-evidence abstained |\n|---|---:|---:|---:|---:|---:|---|---:|\n');
  for (const model of CANDIDATES) {
    const m = measureHalf(set, 'dev', crossValidationResults(model, people, noEvidence, folds, foldOf));
    const levels = (['High', 'Medium', 'Low'] as const).map((level) => pct(m.byConfidence[level])).join(' / ');
    process.stdout.write(`| ${model.name} | ${pct(m.top1)} | ${pct(m.top2)} | ${pct(m.acceptableSecondary)} | ${pct(m.paraphraseAgreement)} | ${pct(m.abstention.falseAbstention)} | ${levels} | ${pct(m.abstention.recall)} |\n`);
  }
  const alone = measureHalf(set, 'dev', crossValidationResults(weightsAlone('', WORD_WEIGHT_OPTIONS), people, noEvidence, folds, foldOf));
  process.stdout.write(`\nThe committed options' word weights alone (highest learned score, no lexicon, never abstaining): top-1 ${pct(alone.top1)}, paraphrase agreement ${pct(alone.paraphraseAgreement)}.\n`);
}

if (require.main === module) main();
