/**
 * The folds of `make eval-cv` (scripts/eval/cross-validate.ts): a person is in exactly one
 * fold (so are their three descriptions), each primary is dealt evenly round the folds,
 * and a seed gives the same folds every time. Each fold is predicted by what was learned
 * without its people, and the predictions are measured by `make eval`'s own measures.
 * SEED (printed) reproduces a run.
 */
import { PROFILE_NAMES } from '../../../src/domain/profiles';
import { assignFolds, crossValidationResults, type Model } from '../../../scripts/eval/cross-validate';
import { loadEvalSet } from '../../../scripts/eval/eval-set';
import { measureHalf } from '../../../scripts/eval/measures';
import { seedFromEnvironment, seededRandom } from '../../support/seeded-random';

const seed = seedFromEnvironment();
const set = loadEvalSet();
const people = set.people.filter((person) => person.half === 'dev');
const noEvidence = set.noEvidence.filter((note) => note.half === 'dev');

describe('assignFolds', () => {
  test('when the development people are dealt into five folds, then each person is in one fold and each primary is spread evenly', () => {
    const folds = assignFolds(people, 5, seededRandom('cross-validate.test.ts', seed));

    expect([...folds.keys()].sort()).toEqual(people.map((person) => person.id).sort());
    for (const profile of PROFILE_NAMES) {
      const sizes = [0, 1, 2, 3, 4].map((fold) => people.filter((person) => person.primary === profile && folds.get(person.id) === fold).length);
      expect([profile, Math.max(...sizes) - Math.min(...sizes) <= 1]).toEqual([profile, true]);
    }
    const sizes = [0, 1, 2, 3, 4].map((fold) => [...folds.values()].filter((value) => value === fold).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  test('when the same seed is given twice, then the folds are the same, and another seed deals them differently', () => {
    const folds = assignFolds(people, 5, seededRandom('cross-validate.test.ts', seed));

    expect(assignFolds(people, 5, seededRandom('again', seed))).toEqual(folds);
    expect(assignFolds(people, 5, seededRandom('another seed', (seed + 1) % 2 ** 32))).not.toEqual(folds);
  });
});

describe('crossValidationResults', () => {
  /** Learns the ids of its training people; answers a description with its own person's primary only when that person was learned (a leak), else Visionary, and abstains on no-evidence notes. */
  const leakDetector: Model<ReadonlySet<string>> = {
    name: 'leak detector',
    learn: (training) => new Set(training.flatMap((person) => person.descriptions)),
    predict: (subject, learned) => {
      const person = people.find((each) => each.descriptions.includes(subject.notes));
      const profile = person === undefined ? null : learned.has(subject.notes) ? person.primary : 'Visionary';
      return { profile, secondary_profile: null, confidence: profile === null ? 'Low' : 'Medium', reasoning: null, summary: null, secondary_profile_summary: null };
    },
  };

  test('when the development half is cross-validated, then every description and no-evidence note is predicted once, by what was learned without its person, and measured as make eval measures it', () => {
    const folds = assignFolds(people, 5, seededRandom('cross-validate.test.ts', seed));

    const results = crossValidationResults(leakDetector, people, noEvidence, 5, folds);

    const described = results.filter((result) => result.call.purpose === 'description');
    expect(described.map((result) => `${result.call.itemId}/${result.call.description}`).sort()).toEqual(people.flatMap((person) => [0, 1, 2].map((d) => `${person.id}/${d}`)).sort());
    expect(results.filter((result) => result.call.purpose === 'no-evidence').map((result) => result.call.itemId).sort()).toEqual(noEvidence.map((note) => note.id).sort());
    const measures = measureHalf(set, 'dev', results);
    const visionaries = people.filter((person) => person.primary === 'Visionary').length;
    expect(measures.top1).toEqual({ hits: 3 * visionaries, of: 3 * people.length });
    expect(measures.byConfidence.Medium).toEqual(measures.top1);
    expect(measures.paraphraseAgreement).toEqual({ hits: people.length, of: people.length });
    expect(measures.abstention.recall).toEqual({ hits: noEvidence.length, of: noEvidence.length });
    expect(measures.abstention.falseAbstention).toEqual({ hits: 0, of: 3 * people.length });
  });
});
