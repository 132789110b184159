/**
 * The embedded predictor's learned word weights (src/upstream/embedded/snap-word-weights.json)
 * are what their generator gives from the development half of the evaluation set: a change
 * of that half without `make snap-word-weights`, or a hand edit of the file, fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEvalSet } from '../../../scripts/eval/eval-set';
import { learnWordWeights, snapWordWeightsFile } from '../../../scripts/lexicon/learn-word-weights';
import { PROFILE_NAMES } from '../../../src/domain/profiles';

const committed = JSON.parse(readFileSync(join(__dirname, '../../../src/upstream/embedded/snap-word-weights.json'), 'utf8')) as unknown;

describe('the learned word weights', () => {
  test('when the generator runs on the development half, then it gives exactly the committed file', () => {
    expect(committed).toEqual(snapWordWeightsFile());
  });

  test('when the weights are learned, then only development people are read: a held-out text changes nothing', () => {
    const people = loadEvalSet().people;
    const dev = people.filter((person) => person.half === 'dev');
    expect(snapWordWeightsFile().people).toBe(dev.length);
    const withHeldOut = people.map((person) => (person.half === 'held-out' ? { ...person, descriptions: ['Bold pioneer, unafraid.', 'Bold pioneer.', 'Pioneer.'] as const } : person));
    const { weights, standalone } = snapWordWeightsFile();
    expect({ weights, standalone }).toEqual(learnWordWeights(withHeldOut.filter((person) => person.half === 'dev')));
  });

  test('when stems are learned from a few people, then a stem of one profile weighs for it, a stem of every profile weighs nothing, and a stem of one person is left out', () => {
    const people = PROFILE_NAMES.flatMap((primary, index) =>
      [1, 2, 3].map((n) => ({ id: `p${index}-${n}`, primary, descriptions: [primary === 'Nurturer' ? `works, mentors ${n}` : `works ${n}`, `person${index}x${n} works`] })),
    );
    const { weights, standalone } = learnWordWeights(people, { smoothing: 1, minPeople: 2, scale: 1, standaloneShare: 0.5, functionWordsStandalone: true });
    const nurturer = PROFILE_NAMES.indexOf('Nurturer');
    expect(Math.max(...(weights.mentor ?? []))).toBe(weights.mentor?.[nurturer]);
    expect(weights.mentor?.[nurturer]).toBeGreaterThan(0);
    expect(weights.work?.every((weight) => Math.abs(weight) < 0.2)).toBe(true);
    expect(Object.keys(weights).some((wordStem) => wordStem.startsWith('person'))).toBe(false);
    expect(standalone).toEqual(['work']);
  });

  test('when function words are used by every person, then they weigh like any stem but are standalone only if the options say so (a pair of stems holding one is not a function word)', () => {
    const people = PROFILE_NAMES.flatMap((primary, index) =>
      [1, 2, 3].map((n) => ({ id: `p${index}-${n}`, primary, descriptions: [primary === 'Trailblazer' ? `moved here from ${n}` : `moved from ${n}`] })),
    );
    const options = { smoothing: 1, minPeople: 2, scale: 1, standaloneShare: 0.5 };

    const kept = learnWordWeights(people, { ...options, functionWordsStandalone: true });
    const never = learnWordWeights(people, { ...options, functionWordsStandalone: false });

    expect(kept.weights).toEqual(never.weights);
    expect(never.weights.here?.[PROFILE_NAMES.indexOf('Trailblazer')]).toBeGreaterThan(0);
    expect(kept.standalone).toEqual(['from', 'move', 'move from']);
    expect(never.standalone).toEqual(['move', 'move from']);
  });
});
