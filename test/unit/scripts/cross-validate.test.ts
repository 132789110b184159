/**
 * The folds of `make eval-cv` (scripts/eval/cross-validate.ts): a person is in exactly one
 * fold (so are their three descriptions), each primary is dealt evenly round the folds,
 * and a seed gives the same folds every time. SEED (printed) reproduces a run.
 */
import { PROFILE_NAMES } from '../../../src/domain/profiles';
import { assignFolds } from '../../../scripts/eval/cross-validate';
import { loadEvalSet } from '../../../scripts/eval/eval-set';
import { seedFromEnvironment, seededRandom } from '../../support/seeded-random';

const seed = seedFromEnvironment();
const people = loadEvalSet().people.filter((person) => person.half === 'dev');

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
