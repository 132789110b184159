/**
 * The measures of one half (docs/evaluation.md), from the calls' results and the labels.
 * Prediction measures count the answered calls (201); the status counts show the others.
 * - top-1: the predicted primary is the labelled one; top-2: the labelled primary is the
 *   predicted primary or secondary; over the three descriptions of every person;
 * - paraphrase agreement: a person's three descriptions got the same primary;
 * - name-swap invariance: the original under every name got the same primary, secondary and
 *   confidence (and, reported beside it, texts identical once the name is taken out);
 * - repeatability: the original sent again got the same primary, secondary and confidence;
 * - abstention: a 201 whose profile is null. Recall on no-evidence notes, precision among
 *   all abstentions on no-evidence notes and descriptions, false abstention on descriptions;
 * - accuracy by confidence: top-1 of the descriptions answered with a profile, by level.
 */
import { CONFIDENCE_LEVELS, PROFILE_NAMES, type Confidence, type ProfileName } from '../../src/domain/profiles';
import { PROFILE_GROUPS, groupOf, type EvalSet, type Half, type LabelledPerson } from './eval-set';
import type { CallResult, Prediction } from './run-calls';

export interface Ratio {
  hits: number;
  of: number;
}

export interface HalfMeasures {
  half: Half;
  calls: number;
  people: number;
  /** Description calls answered 201, of description calls. */
  answered: Ratio;
  top1: Ratio;
  top2: Ratio;
  /** The predicted secondary is one of the acceptable ones, when the primary is right. */
  acceptableSecondary: Ratio;
  byPrimary: Record<ProfileName, Ratio>;
  byGroup: Record<string, { top1: Ratio; sameGroup: Ratio }>;
  paraphraseAgreement: Ratio;
  nameSwapInvariance: Ratio;
  nameSwapTextsIdentical: Ratio;
  repeatability: Ratio;
  abstention: { recall: Ratio; precision: Ratio; falseAbstention: Ratio; foreignAbstained: Ratio; foreignTop1WhenAnswered: Ratio };
  byConfidence: Record<Confidence, Ratio>;
  /** Rows: labelled primaries in taxonomy order; columns: predicted primaries, then "none" (abstained). */
  confusion: number[][];
  statuses: Record<string, number>;
  rate500: Ratio;
  tokensPerCall: number | null;
  seconds: { mean: number; median: number; max: number };
}

const ratio = (hits: number, of: number): Ratio => ({ hits, of });
const count = <T>(items: readonly T[], test: (item: T) => boolean): Ratio => ratio(items.filter(test).length, items.length);
export const share = (r: Ratio): number | null => (r.of === 0 ? null : r.hits / r.of);

const answeredWith = (result: CallResult): result is CallResult & { prediction: Prediction } => result.status === 201 && result.prediction !== undefined;
const abstained = (result: CallResult): boolean => answeredWith(result) && result.prediction.profile === null;
const sameLabels = (a: Prediction, b: Prediction): boolean =>
  a.profile === b.profile && a.secondary_profile === b.secondary_profile && a.confidence === b.confidence;

/** The prediction's texts with the name (and each part of it) replaced, for comparing across names. */
function textsWithoutName(prediction: Prediction, name: string): string {
  // Whole words only: a name part such as "de" (Jan de Vries) must not be taken out of "decides".
  const parts = [name, ...name.split(/\s+/u)].filter((part) => part.length > 1);
  const escaped = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'gu');
  return [prediction.reasoning, prediction.summary, prediction.secondary_profile_summary].map((text) => (text ?? '').replace(pattern, '<name>')).join('\n');
}

function allAgree<T>(values: readonly T[], equal: (a: T, b: T) => boolean): boolean {
  const [first, ...rest] = values;
  return first !== undefined && rest.every((value) => equal(first, value));
}

export function measureHalf(set: EvalSet, half: Half, results: readonly CallResult[]): HalfMeasures {
  const mine = results.filter((result) => result.call.half === half);
  const people = new Map(set.people.map((person) => [person.id, person]));
  const personOf = (result: CallResult): LabelledPerson => people.get(result.call.itemId) as LabelledPerson;
  const described = mine.filter((result) => result.call.purpose === 'description');
  const answered = described.filter(answeredWith);
  const named = answered.filter((result) => result.prediction.profile !== null);
  const right = (result: CallResult & { prediction: Prediction }) => result.prediction.profile === personOf(result).primary;

  const byPerson = new Map<string, CallResult[]>();
  for (const result of mine.filter((each) => ['description', 'name-swap', 'repeat'].includes(each.call.purpose))) {
    byPerson.set(result.call.itemId, [...(byPerson.get(result.call.itemId) ?? []), result]);
  }
  const groups = [...byPerson.values()];
  const originals = (calls: CallResult[]) => calls.filter((call) => call.call.description === 0);
  const withAll = (calls: CallResult[], purpose: string) => calls.filter((call) => call.call.purpose === purpose).length > 0;

  const paraphrased = groups.filter((calls) => calls.filter((call) => call.call.purpose === 'description').length === 3);
  const paraphraseAgreement = count(
    paraphrased.filter((calls) => calls.filter((call) => call.call.purpose === 'description').every(answeredWith)),
    (calls) => allAgree(calls.filter((call) => call.call.purpose === 'description').map((call) => call.prediction?.profile), (a, b) => a === b),
  );
  const swapped = groups
    .filter((calls) => withAll(calls, 'name-swap'))
    .map((calls) => originals(calls).filter((call) => call.call.purpose !== 'repeat'))
    .filter((calls) => calls.every(answeredWith)) as (CallResult & { prediction: Prediction })[][];
  const nameSwapInvariance = count(swapped, (calls) => allAgree(calls.map((call) => call.prediction), sameLabels));
  const nameSwapTextsIdentical = count(swapped, (calls) => allAgree(calls.map((call) => textsWithoutName(call.prediction, call.call.body.name)), (a, b) => a === b));
  const repeated = groups
    .filter((calls) => withAll(calls, 'repeat'))
    .map((calls) => originals(calls).filter((call) => call.call.purpose !== 'name-swap'))
    .filter((calls) => calls.every(answeredWith)) as (CallResult & { prediction: Prediction })[][];
  const repeatability = count(repeated, (calls) => allAgree(calls.map((call) => call.prediction), sameLabels));

  const noEvidence = mine.filter((result) => result.call.purpose === 'no-evidence').filter(answeredWith);
  const foreign = mine.filter((result) => result.call.purpose === 'foreign').filter(answeredWith);
  const foreignLabel = new Map(set.foreign.map((note) => [note.id, note.primary]));
  const abstainedNoEvidence = noEvidence.filter(abstained).length;
  const abstainedDescribed = answered.filter(abstained).length;

  const byPrimary = Object.fromEntries(PROFILE_NAMES.map((profile) => [profile, count(answered.filter((result) => personOf(result).primary === profile), right)])) as Record<ProfileName, Ratio>;
  const byGroup = Object.fromEntries(
    Object.entries(PROFILE_GROUPS).map(([group, members]) => {
      const inGroup = answered.filter((result) => members.includes(personOf(result).primary));
      return [group, { top1: count(inGroup, right), sameGroup: count(inGroup, (result) => result.prediction.profile !== null && groupOf(result.prediction.profile) === group) }];
    }),
  );
  const byConfidence = Object.fromEntries(CONFIDENCE_LEVELS.map((level) => [level, count(named.filter((result) => result.prediction.confidence === level), right)])) as Record<Confidence, Ratio>;

  const confusion = PROFILE_NAMES.map((label) => {
    const row = new Array<number>(PROFILE_NAMES.length + 1).fill(0);
    for (const result of answered.filter((each) => personOf(each).primary === label)) {
      const column = result.prediction.profile === null ? PROFILE_NAMES.length : PROFILE_NAMES.indexOf(result.prediction.profile);
      row[column] = (row[column] ?? 0) + 1;
    }
    return row;
  });

  const statuses: Record<string, number> = {};
  for (const result of mine) statuses[String(result.status)] = (statuses[String(result.status)] ?? 0) + 1;
  const tokens = mine.map((result) => result.tokens).filter((value): value is number => value !== null);
  const seconds = mine.map((result) => result.seconds).sort((a, b) => a - b);

  return {
    half,
    calls: mine.length,
    people: byPerson.size,
    answered: count(described, answeredWith),
    top1: count(answered, right),
    top2: count(answered, (result) => [result.prediction.profile, result.prediction.secondary_profile].includes(personOf(result).primary)),
    acceptableSecondary: count(answered.filter(right), (result) => result.prediction.secondary_profile !== null && personOf(result).secondaries.includes(result.prediction.secondary_profile)),
    byPrimary,
    byGroup,
    paraphraseAgreement,
    nameSwapInvariance,
    nameSwapTextsIdentical,
    repeatability,
    abstention: {
      recall: ratio(abstainedNoEvidence, noEvidence.length),
      precision: ratio(abstainedNoEvidence, abstainedNoEvidence + abstainedDescribed),
      falseAbstention: ratio(abstainedDescribed, answered.length),
      foreignAbstained: count(foreign, abstained),
      foreignTop1WhenAnswered: count(foreign.filter((result) => !abstained(result)), (result) => result.prediction.profile === foreignLabel.get(result.call.itemId)),
    },
    byConfidence,
    confusion,
    statuses,
    rate500: count(mine, (result) => result.status === 500),
    tokensPerCall: tokens.length === 0 ? null : tokens.reduce((a, b) => a + b, 0) / tokens.length,
    seconds: {
      mean: seconds.length === 0 ? 0 : seconds.reduce((a, b) => a + b, 0) / seconds.length,
      median: seconds[Math.floor(seconds.length / 2)] ?? 0,
      max: seconds[seconds.length - 1] ?? 0,
    },
  };
}
