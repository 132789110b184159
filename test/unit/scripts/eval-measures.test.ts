/**
 * The measures and the gate of `make eval` (scripts/eval/measures.ts, gate.ts) on results
 * made up here, so that each measure is seen to count what it names.
 */
import { loadEvalSet, type Half } from '../../../scripts/eval/eval-set';
import { HELD_OUT_FLOORS, checkPasses, gateChecks, type GateCheck } from '../../../scripts/eval/gate';
import { measureHalf } from '../../../scripts/eval/measures';
import { planCalls, type PlannedCall } from '../../../scripts/eval/plan';
import type { CallResult, Prediction } from '../../../scripts/eval/run-calls';
import type { Confidence, ProfileName } from '../../../src/domain/profiles';

const set = loadEvalSet();
const HALF: Half = 'held-out';
const calls = planCalls(set, { halves: [HALF], descriptions: 3, names: 6, repeats: 3 });
/** The held-out half's people, and their descriptions (three each). */
const PEOPLE = set.people.filter((person) => person.half === HALF).length;
const DESCRIPTIONS = PEOPLE * 3;
/** The held-out half's no-evidence notes. */
const NOTES = set.noEvidence.filter((note) => note.half === HALF).length;
const labelOf = (call: PlannedCall): ProfileName | null => set.people.find((person) => person.id === call.itemId)?.primary ?? null;

function predicted(profile: ProfileName | null, confidence: Confidence = 'High', secondary: ProfileName | null = 'Steward', name = 'X'): Prediction {
  return { profile, secondary_profile: profile === null ? null : secondary, confidence, reasoning: 'r', summary: profile === null ? null : `${name} is here.`, secondary_profile_summary: null };
}

/** Every call right (its label, High), no-evidence notes abstained, foreign notes abstained: a perfect predictor. */
function perfect(call: PlannedCall): CallResult {
  const label = call.purpose === 'no-evidence' || call.purpose === 'foreign' ? null : labelOf(call);
  return { call, status: 201, seconds: 0.01, tokens: 0, prediction: predicted(label, label === null ? 'Low' : 'High', 'Steward', call.body.name) };
}

describe('the measures of make eval', () => {
  test('when every answer is right and every no-evidence note abstained, then every measure is perfect and the gate passes', () => {
    const measures = measureHalf(set, HALF, calls.map(perfect));
    expect(measures.top1).toEqual({ hits: DESCRIPTIONS, of: DESCRIPTIONS });
    expect(measures.paraphraseAgreement).toEqual({ hits: PEOPLE, of: PEOPLE });
    expect(measures.nameSwapInvariance).toEqual({ hits: PEOPLE, of: PEOPLE });
    expect(measures.nameSwapTextsIdentical).toEqual({ hits: PEOPLE, of: PEOPLE });
    expect(measures.abstention.recall).toEqual({ hits: NOTES, of: NOTES });
    expect(measures.abstention.precision).toEqual({ hits: NOTES, of: NOTES });
    expect(measures.confusion.flat().reduce((a, b) => a + b, 0)).toBe(DESCRIPTIONS);
    expect(gateChecks(measures).filter((check) => !check.passed)).toEqual([]);
  });

  test('when one name changes one person\'s primary, then name-swap invariance misses that person and the gate fails on it', () => {
    const swapped = calls.find((call) => call.purpose === 'name-swap');
    const results = calls.map((call) => (call === swapped ? { ...perfect(call), prediction: predicted('Visionary') } : perfect(call)));
    const measures = measureHalf(set, HALF, results);
    expect(measures.nameSwapInvariance).toEqual({ hits: PEOPLE - 1, of: PEOPLE });
    expect(measures.top1).toEqual({ hits: DESCRIPTIONS, of: DESCRIPTIONS }); // name swaps are not accuracy calls
    expect(gateChecks(measures).filter((check) => !check.passed).map((check) => check.measure)).toEqual(['name-swap invariance']);
  });

  test('when a paraphrase gets another primary, then paraphrase agreement and top-1 miss it, and top-2 counts a right secondary', () => {
    const paraphrase = calls.find((call) => call.purpose === 'description' && call.description === 2);
    if (!paraphrase) throw new Error('a paraphrase');
    const results = calls.map((call) => (call === paraphrase ? { ...perfect(call), prediction: predicted('Investigator', 'Low', labelOf(call)) } : perfect(call)));
    const measures = measureHalf(set, HALF, results);
    expect(measures.paraphraseAgreement).toEqual({ hits: PEOPLE - 1, of: PEOPLE });
    expect(measures.top1).toEqual({ hits: DESCRIPTIONS - 1, of: DESCRIPTIONS });
    expect(measures.top2).toEqual({ hits: DESCRIPTIONS, of: DESCRIPTIONS });
    expect(measures.byConfidence.Low).toEqual({ hits: 0, of: 1 });
  });

  test('when a no-evidence note gets a profile and a description abstains, then recall, precision and false abstention each count one', () => {
    const note = calls.find((call) => call.purpose === 'no-evidence');
    const description = calls.find((call) => call.purpose === 'description');
    const results = calls.map((call) => {
      if (call === note) return { ...perfect(call), prediction: predicted('Visionary', 'Low') };
      if (call === description) return { ...perfect(call), prediction: predicted(null, 'Low') };
      return perfect(call);
    });
    const measures = measureHalf(set, HALF, results);
    expect(measures.abstention.recall).toEqual({ hits: NOTES - 1, of: NOTES });
    expect(measures.abstention.precision).toEqual({ hits: NOTES - 1, of: NOTES });
    expect(measures.abstention.falseAbstention).toEqual({ hits: 1, of: DESCRIPTIONS });
    expect(measures.confusion.map((row) => row[12]).reduce((a = 0, b = 0) => a + b, 0)).toBe(1);
  });

  test('when a foreign-language note gets a profile, then the gate fails on foreign abstention, and on the floors too', () => {
    const foreign = calls.find((call) => call.purpose === 'foreign');
    const results = calls.map((call) => (call === foreign ? { ...perfect(call), prediction: predicted('Visionary', 'Low') } : perfect(call)));
    const failed = gateChecks(measureHalf(set, HALF, results)).filter((check) => !checkPasses(check, 'floors'));
    expect(failed.map((check) => check.measure)).toEqual(['abstention on foreign-language notes']);
  });

  test('when Medium is right more often than High, then accuracy by confidence is not rising and the gate says so', () => {
    const results = calls.map((call) => {
      const result = perfect(call);
      if (call.purpose !== 'description') return result;
      if (call.description === 1) return { ...result, prediction: predicted(labelOf(call), 'Medium') };
      if (call.description === 2) return { ...result, prediction: predicted(labelOf(call) === 'Visionary' ? 'Steward' : 'Visionary', 'High') };
      return result;
    });
    const checks = gateChecks(measureHalf(set, HALF, results));
    expect(checks.find((check) => check.measure === 'accuracy by confidence')).toMatchObject({ passed: false, got: `Medium 100.0% (${PEOPLE}/${PEOPLE}), High 50.0% (${PEOPLE}/${PEOPLE * 2})` });
  });

  test('when a call ends 500, then it counts in the 500 rate and not in accuracy, and the gate fails on its status', () => {
    const failed = calls.find((call) => call.purpose === 'description');
    const results = calls.map((call) => (call === failed ? { call, status: 500, seconds: 1, tokens: 30, error: 'Internal server error' } : perfect(call)));
    const measures = measureHalf(set, HALF, results);
    expect(measures.rate500).toEqual({ hits: 1, of: calls.length });
    expect(measures.answered).toEqual({ hits: DESCRIPTIONS - 1, of: DESCRIPTIONS });
    expect(measures.top1).toEqual({ hits: DESCRIPTIONS - 1, of: DESCRIPTIONS - 1 });
    expect(measures.tokensPerCall).toBeCloseTo(30 / calls.length);
    expect(gateChecks(measures).find((check) => check.measure === 'every call answered 201')).toMatchObject({ passed: false, got: '1× 500' });
  });
});

describe('the floors of the gate (make test: EVAL_GATE=floors)', () => {
  const checkOf = (checks: GateCheck[], measure: string): GateCheck => {
    const check = checks.find((candidate) => candidate.measure === measure);
    if (!check) throw new Error(`no check ${measure}`);
    return check;
  };

  /** Every call right, except that the people after the first `agreeing` get a second description of another primary. */
  function agreeingPeople(agreeing: number): CallResult[] {
    const people = set.people.filter((person) => person.half === HALF).map((person) => person.id);
    const disagreeing = new Set(people.slice(agreeing));
    return calls.map((call) => {
      if (call.purpose !== 'description' || call.description !== 2 || !disagreeing.has(call.itemId)) return perfect(call);
      return { ...perfect(call), prediction: predicted(labelOf(call) === 'Visionary' ? 'Steward' : 'Visionary', 'Low') };
    });
  }

  /** Every call right, except that the first `count` descriptions abstain. */
  function abstaining(count: number): CallResult[] {
    const abstained = new Set(calls.filter((call) => call.purpose === 'description').slice(0, count));
    return calls.map((call) => (abstained.has(call) ? { ...perfect(call), prediction: predicted(null, 'Low') } : perfect(call)));
  }

  test('when paraphrase agreement falls one person below its target, then it fails on the floors too: the target is met, so it has no floor', () => {
    const atTarget = Math.ceil(0.8 * PEOPLE);
    const met = checkOf(gateChecks(measureHalf(set, HALF, agreeingPeople(atTarget))), 'paraphrase agreement');
    const below = checkOf(gateChecks(measureHalf(set, HALF, agreeingPeople(atTarget - 1))), 'paraphrase agreement');
    expect([met.passed, checkPasses(met, 'floors')]).toEqual([true, true]);
    expect([below.passed, below.floor, checkPasses(below, 'floors')]).toEqual([false, undefined, false]);
  });

  test('when false abstention goes one description above its target, then it fails on the floors too: the target is met, so it has no floor', () => {
    const atTarget = Math.floor(0.05 * DESCRIPTIONS);
    const met = checkOf(gateChecks(measureHalf(set, HALF, abstaining(atTarget))), 'false abstention on descriptions');
    const beyond = checkOf(gateChecks(measureHalf(set, HALF, abstaining(atTarget + 1))), 'false abstention on descriptions');
    expect([met.passed, checkPasses(met, 'floors')]).toEqual([true, true]);
    expect([beyond.passed, beyond.floor, checkPasses(beyond, 'floors')]).toEqual([false, undefined, false]);
  });

  test('when no-evidence notes are answered, then abstention holds its floor down to it and fails one note below', () => {
    const notes = calls.filter((call) => call.purpose === 'no-evidence');
    const abstainedAtFloor = Math.ceil(HELD_OUT_FLOORS.noEvidenceAbstention * notes.length);
    const answering = (answered: number): CallResult[] => {
      const guessed = new Set(notes.slice(0, answered));
      return calls.map((call) => (guessed.has(call) ? { ...perfect(call), prediction: predicted('Visionary', 'Low') } : perfect(call)));
    };
    const held = checkOf(gateChecks(measureHalf(set, HALF, answering(notes.length - abstainedAtFloor))), 'abstention on no-evidence notes');
    const below = checkOf(gateChecks(measureHalf(set, HALF, answering(notes.length - abstainedAtFloor + 1))), 'abstention on no-evidence notes');
    expect([held.passed, checkPasses(held, 'floors')]).toEqual([false, true]);
    expect([below.passed, checkPasses(below, 'floors')]).toEqual([false, false]);
  });

  test('when a target that has no floor is missed (name-swap invariance), then it fails on the floors too', () => {
    const swapped = calls.find((call) => call.purpose === 'name-swap');
    const results = calls.map((call) => (call === swapped ? { ...perfect(call), prediction: predicted('Visionary') } : perfect(call)));
    const check = checkOf(gateChecks(measureHalf(set, HALF, results)), 'name-swap invariance');
    expect(check.floor).toBeUndefined();
    expect(checkPasses(check, 'floors')).toBe(false);
  });

  test('when a target is met, then its check carries no floor', () => {
    expect(gateChecks(measureHalf(set, HALF, calls.map(perfect))).filter((check) => check.floor !== undefined)).toEqual([]);
  });
});
