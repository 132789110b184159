/**
 * `make eval-cv` (docs/evaluation.md): person-grouped k-fold cross-validation of the
 * embedded predictor on the development half only. The held-out half is never read.
 * Each fold's word weights are learned from the other folds' people and scored on the
 * fold's people (all three descriptions of a person are in the same fold), so the figures
 * say how the learned part does on people it has not seen. Folds are stratified by the
 * labelled primary and shuffled with SEED (printed; FOLDS sets k; SEEDS=1,2,3 adds the
 * figures up over several seeds). The folds' predictions
 * become the call results `make eval` would record, and `measureHalf` (measures.ts)
 * measures them: one definition of each measure for both.
 */
import { PROFILE_NAMES } from '../../src/domain/profiles';
import { predictSnapEmbedded } from '../../src/upstream/embedded/snap-prediction';
import { learnedScores, wordWeightsOf, type WordWeights } from '../../src/upstream/embedded/snap-word-weights';
import { WORD_WEIGHT_OPTIONS, learnWordWeights, learnedStemsOf, type WordWeightOptions } from '../lexicon/learn-word-weights';
import { noEvidenceDetectorOf, type NoEvidenceDetector } from '../../src/upstream/embedded/snap-no-evidence';
import { NO_EVIDENCE_OPTIONS, learnNoEvidence, type NoEvidenceOptions } from '../lexicon/learn-no-evidence';
import { seedFromEnvironment, seededRandom, type SeededRandom } from '../../test/support/seeded-random';
import type { AnonymousSubject } from '../../src/domain/ports';
import { loadEvalSet, type LabelledPerson, type NoEvidenceNote } from './eval-set';
import { measureHalf, type HalfMeasures, type Ratio } from './measures';
import type { PlannedCall } from './plan';
import type { CallResult, Prediction } from './run-calls';

/** What is learned from the training folds, and how a description is predicted with it. */
export interface Model<Learned> {
  name: string;
  learn(training: readonly LabelledPerson[], notes: readonly NoEvidenceNote[]): Learned;
  predict(subject: AnonymousSubject, learned: Learned): Prediction;
}

const NO_WEIGHTS: WordWeights = { weights: new Map(), standalone: new Set() };
/** A detector that never finds notes to read like no-evidence notes. */
const NO_DETECTOR: NoEvidenceDetector = { ratios: new Map(), threshold: Infinity };

interface Learned {
  weights: WordWeights;
  detector: NoEvidenceDetector;
}

/**
 * The embedded predictor with word weights learned by `options` (none: the lexicon
 * alone) and a no-evidence detector learned by `detectorOptions` (none: never) from the
 * training folds' descriptions and no-evidence notes.
 */
function embedded(name: string, options?: WordWeightOptions, detectorOptions?: NoEvidenceOptions): Model<Learned> {
  return {
    name,
    learn: (training, notes) => ({
      weights: options ? wordWeightsOf(learnWordWeights(training, options)) : NO_WEIGHTS,
      detector: detectorOptions
        ? noEvidenceDetectorOf(learnNoEvidence(training.flatMap((person) => person.descriptions), notes.map((note) => note.notes), detectorOptions))
        : NO_DETECTOR,
    }),
    predict: (subject, learned) => predictSnapEmbedded(subject, learned.weights, learned.detector),
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
    learn: (training) => wordWeightsOf(learnWordWeights(training, options)),
    predict: (subject, weights) => {
      const scores = learnedScores(learnedStemsOf(subject.notes), weights.weights, PROFILE_NAMES.length);
      const profile = PROFILE_NAMES[scores.indexOf(Math.max(...scores))] ?? null;
      return { profile, secondary_profile: null, confidence: null, reasoning: null, summary: null, secondary_profile_summary: null };
    },
  };
}

/**
 * The lexicon alone (the predictor before word weights), the committed options, the
 * committed word weights without the detector, and neighbours of the committed options
 * (the word weights' and the detector's) for comparison.
 */
const CANDIDATES: readonly Model<Learned>[] = [
  embedded('lexicon only'),
  embedded(`lexicon + word weights ${describe(WORD_WEIGHT_OPTIONS)}, no detector`, WORD_WEIGHT_OPTIONS),
  ...[
    WORD_WEIGHT_OPTIONS,
    ...[0.3, 0.5].map((scale) => ({ ...WORD_WEIGHT_OPTIONS, scale })),
    ...[0, 0.03].map((standaloneShare) => ({ ...WORD_WEIGHT_OPTIONS, standaloneShare })),
    { ...WORD_WEIGHT_OPTIONS, minPeople: 2 },
    { ...WORD_WEIGHT_OPTIONS, smoothing: 1 },
  ].map((options) => embedded(`lexicon + word weights ${describe(options)} + detector ${describeDetector(NO_EVIDENCE_OPTIONS)}`, options, NO_EVIDENCE_OPTIONS)),
  ...[
    ...[-0.4, -0.6].map((threshold) => ({ ...NO_EVIDENCE_OPTIONS, threshold })),
    ...[0.25, 1].map((smoothing) => ({ ...NO_EVIDENCE_OPTIONS, smoothing })),
    { ...NO_EVIDENCE_OPTIONS, minTexts: 3 },
  ].map((detector) => embedded(`lexicon + word weights ${describe(WORD_WEIGHT_OPTIONS)} + detector ${describeDetector(detector)}`, WORD_WEIGHT_OPTIONS, detector)),
];

function describeDetector(options: NoEvidenceOptions): string {
  const committed = Object.entries(options).every(([key, value]) => NO_EVIDENCE_OPTIONS[key as keyof NoEvidenceOptions] === value);
  return `(threshold ${options.threshold}, smoothing ${options.smoothing}, min texts ${options.minTexts})${committed ? ': committed' : ''}`;
}

function describe(options: WordWeightOptions): string {
  const committed = Object.entries(options).every(([key, value]) => WORD_WEIGHT_OPTIONS[key as keyof WordWeightOptions] === value);
  return `(scale ${options.scale}, min people ${options.minPeople}, smoothing ${options.smoothing}, standalone share ${options.standaloneShare}${options.functionWordsStandalone ? '' : ', function words never standalone'})${committed ? ': committed' : ''}`;
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
    const learned = model.learn(people.filter((person) => foldOf.get(person.id) !== fold), noEvidence.filter((_, index) => index % folds !== fold));
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

/**
 * The development people added after the lexicon (`snap-terms.ts`), the synonyms' rules
 * and the scoring constants were last written by hand, by authors blind to them: ids
 * numbered 31 and up (docs/evaluation.md). The hand-written parts were fitted to the
 * people numbered below, so only these people's figures say how the whole predictor
 * does on texts nothing of it was fitted to; the learned part is still learned per fold.
 */
export const WRITTEN_BLIND_FROM = 31;

export const writtenBlind = (id: string): boolean => Number(/-(\d+)$/u.exec(id)?.[1]) >= WRITTEN_BLIND_FROM;

/** The call results of the people written blind, and every no-evidence note. */
const ofWrittenBlind = (results: readonly CallResult[]): CallResult[] =>
  results.filter((result) => result.call.purpose !== 'description' || writtenBlind(result.call.itemId));

const pct = ({ hits, of }: Ratio): string => (of === 0 ? 'none' : `${((100 * hits) / of).toFixed(1)}% (${hits}/${of})`);

/** The figures a row prints, from `measureHalf`. */
const ROW_MEASURES = {
  top1: (m: HalfMeasures) => m.top1,
  top2: (m: HalfMeasures) => m.top2,
  acceptableSecondary: (m: HalfMeasures) => m.acceptableSecondary,
  paraphraseAgreement: (m: HalfMeasures) => m.paraphraseAgreement,
  falseAbstention: (m: HalfMeasures) => m.abstention.falseAbstention,
  High: (m: HalfMeasures) => m.byConfidence.High,
  Medium: (m: HalfMeasures) => m.byConfidence.Medium,
  Low: (m: HalfMeasures) => m.byConfidence.Low,
  noEvidence: (m: HalfMeasures) => m.abstention.recall,
};
type Row = Record<keyof typeof ROW_MEASURES, Ratio>;

/** A row's figures added up over several seeds' measures. */
function rowOf(measures: readonly HalfMeasures[]): Row {
  const sum = (ratios: Ratio[]): Ratio => ratios.reduce((a, b) => ({ hits: a.hits + b.hits, of: a.of + b.of }), { hits: 0, of: 0 });
  return Object.fromEntries(Object.entries(ROW_MEASURES).map(([key, take]) => [key, sum(measures.map(take))])) as Row;
}

function line(name: string, r: Row): string {
  return `| ${name} | ${pct(r.top1)} | ${pct(r.top2)} | ${pct(r.acceptableSecondary)} | ${pct(r.paraphraseAgreement)} | ${pct(r.falseAbstention)} | ${pct(r.High)} / ${pct(r.Medium)} / ${pct(r.Low)} | ${pct(r.noEvidence)} |\n`;
}

/** SEEDS (a comma-separated list: the figures add up over them) or SEED (one; a fresh one when unset). */
function seedsFromEnvironment(): number[] {
  const list = process.env.SEEDS;
  return list === undefined || list.trim() === '' ? [seedFromEnvironment()] : list.split(',').map((seed) => seedFromEnvironment(seed));
}

function main(): void {
  const seeds = seedsFromEnvironment();
  const folds = Number(process.env.FOLDS ?? 5);
  const set = loadEvalSet();
  const people = set.people.filter((person) => person.half === 'dev');
  const blind = people.filter((person) => writtenBlind(person.id));
  const noEvidence = set.noEvidence.filter((note) => note.half === 'dev');
  const foldings = seeds.map((seed) => assignFolds(people, folds, seededRandom('make eval-cv', seed)));
  process.stdout.write(
    `SEED${seeds.length > 1 ? 'S' : ''}=${seeds.join(',')} FOLDS=${folds}: ${people.length} development people (${blind.length} of them written blind to the predictor, ids ${WRITTEN_BLIND_FROM} and up), grouped by person, stratified by primary${seeds.length > 1 ? '; the figures add up over the seeds' : ''}\n\n`,
  );
  const header = '| predictor | top-1 | top-2 | acceptable secondary | paraphrase agreement | false abstention | High / Medium / Low top-1 | no-evidence abstained |\n|---|---:|---:|---:|---:|---:|---|---:|\n';
  const everyone: string[] = [];
  const blindOnes: string[] = [];
  for (const model of CANDIDATES) {
    const results = foldings.map((foldOf) => crossValidationResults(model, people, noEvidence, folds, foldOf));
    everyone.push(line(model.name, rowOf(results.map((each) => measureHalf(set, 'dev', each)))));
    blindOnes.push(line(model.name, rowOf(results.map((each) => measureHalf(set, 'dev', ofWrittenBlind(each))))));
  }
  process.stdout.write(`Every development person (the hand-written lexicon was fitted to those numbered below ${WRITTEN_BLIND_FROM}: these figures flatter it)\n\n${header}${everyone.join('')}`);
  if (blind.length > 0) process.stdout.write(`\nThe ${blind.length} people written blind to the predictor (nothing of it fitted to them; the learned part still learned per fold from everyone else)\n\n${header}${blindOnes.join('')}`);
  const aloneResults = foldings.map((foldOf) => crossValidationResults(weightsAlone('', WORD_WEIGHT_OPTIONS), people, noEvidence, folds, foldOf));
  const alone = rowOf(aloneResults.map((each) => measureHalf(set, 'dev', each)));
  const aloneBlind = rowOf(aloneResults.map((each) => measureHalf(set, 'dev', ofWrittenBlind(each))));
  process.stdout.write(
    `\nThe committed options' word weights alone (highest learned score, no lexicon, never abstaining): top-1 ${pct(alone.top1)}, paraphrase agreement ${pct(alone.paraphraseAgreement)}` +
      `${blind.length > 0 ? `; on the people written blind, top-1 ${pct(aloneBlind.top1)}, paraphrase agreement ${pct(aloneBlind.paraphraseAgreement)}` : ''}.\n`,
  );
}

if (require.main === module) main();
