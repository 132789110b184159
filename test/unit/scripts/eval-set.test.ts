/**
 * The evaluation set (eval/set/, docs/evaluation.md) as `make eval` reads it: large and
 * balanced enough, labels within the taxonomy, the split fixed by the ids, and a reader
 * that refuses a malformed set.
 */
import { createHash } from 'node:crypto';
import { PROFILE_NAMES } from '../../../src/domain/profiles';
import { HALVES, halfOf, loadEvalSet, problemsOf, type EvalSet } from '../../../scripts/eval/eval-set';
import { FULL_PLAN, planCalls, selectPeople } from '../../../scripts/eval/plan';

const set = loadEvalSet();

/** The held-out half as measured since 2026-11-26 (docs/evaluation.md): the first 60 held-out people and the held-out notes; a change here means someone edited them. */
const HELD_OUT_SHA256 = 'cb5125cb9efe8bfd8cc532514b04f2d1f949f93076fc4f3b5797a18f1ab4d117';

/**
 * 2026-11-26: the 60 fresh held-out people (ids `xx-22` to `xx-30`), written blind to the
 * embedded predictor after the first held-out people had been looked at while it was tuned
 * (docs/evaluation.md): a change here means someone edited them.
 */
const FRESH_HELD_OUT_SHA256 = '93aa3be01d50b6e625efa5996b5177fb26e3d2094abe79b1999ac69dede1c0e9';

/**
 * 2026-11-26, 12:05 UTC: the 60 newest held-out people (ids `xx-52` to `xx-60`), written blind
 * to the embedded predictor after the fresh ones had been looked at three times
 * (docs/evaluation.md): a change here means someone edited them.
 */
const NEWEST_HELD_OUT_SHA256 = 'c60ddba96825e22a0a5896f43658b61b989bb330d1038f92ce61b2be14dba4a3';

/**
 * 2026-11-26: the 24 newer held-out no-evidence notes (ids `ne-26` to `ne-72`, even), written
 * blind to the embedded predictor (docs/evaluation.md): a change here means someone edited them.
 */
const NEWER_NO_EVIDENCE_SHA256 = 'e0fc8de3c49f8f06f3b0aff5af42d34065573d6adb82f8c56b92c3f724a73ce3';

/**
 * 2026-11-26 evening: the 22 newest held-out no-evidence notes (ids `ne-674` to `ne-716`, even),
 * written blind to the embedded predictor by an author who read only development notes
 * (docs/evaluation.md): a change here means someone edited them.
 */
const NEWEST_NO_EVIDENCE_SHA256 = '0bb8c4c72ed503a655f306f094c95e6177132ebf7a4b371a64461c436efd9579';

const numberOf = (id: string): number => Number(/-(\d+)$/u.exec(id)?.[1]);
/** One of the first 24 no-evidence notes (`ne-01` to `ne-24`), the ones the first held-out fingerprint covers. */
const isFirstNote = (id: string): boolean => numberOf(id) <= 24;
/** A fresh held-out person: an even id numbered 22 to 30 (the first held-out people run from 02 to 10; odd ids are development people). */
const isFresh = (id: string): boolean => numberOf(id) >= 22 && numberOf(id) <= 30 && halfOf(id) === 'held-out';
/** A newest held-out person: an even id numbered 52 or more. */
const isNewest = (id: string): boolean => numberOf(id) >= 52 && halfOf(id) === 'held-out';
const sha256 = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

describe('the evaluation set', () => {
  test('when it is read, then it holds at least 540 people: fifteen of each primary profile held out, ten or more of each and 240 or more in all in the development half', () => {
    expect(set.people.length).toBeGreaterThanOrEqual(540);
    expect(set.people.filter((person) => person.half === 'dev').length).toBeGreaterThanOrEqual(240);
    for (const profile of PROFILE_NAMES) {
      const count = (half: string): number => set.people.filter((person) => person.half === half && person.primary === profile).length;
      expect([profile, count('held-out'), count('dev') >= 10]).toEqual([profile, 15, true]);
    }
  });

  test('when it is read, then the first held-out people and the first held-out notes are exactly the ones first measured (people, texts, names and notes unchanged)', () => {
    const heldOut = {
      people: set.people.filter((person) => person.half === 'held-out' && !isFresh(person.id) && !isNewest(person.id)),
      noEvidence: set.noEvidence.filter((note) => note.half === 'held-out' && isFirstNote(note.id)),
      foreign: set.foreign.filter((note) => note.half === 'held-out'),
    };
    expect([heldOut.people.length, heldOut.noEvidence.length, heldOut.foreign.length]).toEqual([60, 12, 8]);
    expect(sha256(heldOut)).toBe(HELD_OUT_SHA256);
  });

  test('when it is read, then the newer held-out no-evidence notes are exactly the ones written blind (texts and names unchanged)', () => {
    const newer = set.noEvidence.filter((note) => note.half === 'held-out' && !isFirstNote(note.id) && numberOf(note.id) <= 72);
    expect(newer.length).toBe(24);
    expect(sha256({ noEvidence: newer })).toBe(NEWER_NO_EVIDENCE_SHA256);
  });

  test('when it is read, then the newest held-out no-evidence notes are exactly the ones written blind (texts and names unchanged), and no other held-out note was added', () => {
    const newest = set.noEvidence.filter((note) => note.half === 'held-out' && numberOf(note.id) > 72);
    expect([newest.length, newest.every((note) => numberOf(note.id) >= 674 && numberOf(note.id) <= 716)]).toEqual([22, true]);
    expect(sha256({ noEvidence: newest })).toBe(NEWEST_NO_EVIDENCE_SHA256);
  });

  test('when it is read, then the fresh held-out people are exactly the ones written blind (labels, texts and names unchanged)', () => {
    const fresh = set.people.filter((person) => isFresh(person.id));
    expect(fresh.length).toBe(60);
    expect(sha256({ people: fresh })).toBe(FRESH_HELD_OUT_SHA256);
  });

  test('when it is read, then the newest held-out people are exactly the ones written blind (labels, texts and names unchanged; the other people numbered above 30 are all development people)', () => {
    const newest = set.people.filter((person) => isNewest(person.id));
    const otherLater = set.people.filter((person) => numberOf(person.id) > 30 && !isNewest(person.id));
    expect([newest.length, newest.every((person) => numberOf(person.id) <= 60), otherLater.every((person) => person.half === 'dev')]).toEqual([60, true, true]);
    expect(sha256({ people: newest })).toBe(NEWEST_HELD_OUT_SHA256);
  });

  test('when it is read, then no-evidence and foreign-language notes are in both halves', () => {
    for (const half of HALVES) {
      expect(set.noEvidence.filter((note) => note.half === half).length).toBeGreaterThanOrEqual(10);
      expect(new Set(set.foreign.filter((note) => note.half === half).map((note) => note.language)).size).toBeGreaterThanOrEqual(5);
    }
  });

  test('when an id ends in an odd number, then it is in the development half; an even number, the held-out half', () => {
    expect([halfOf('tb-01'), halfOf('tb-10'), halfOf('ne-23'), halfOf('fl-16')]).toEqual(['dev', 'held-out', 'dev', 'held-out']);
  });

  test('when a person is labelled Visionary as a secondary, has two equal descriptions or sits in the wrong half, then the set is refused with each problem named', () => {
    const [first, second, ...rest] = set.people;
    if (!first || !second) throw new Error('the set has people');
    const broken: EvalSet = {
      ...set,
      people: [
        { ...first, secondaries: ['Visionary'] },
        { ...second, half: second.half === 'dev' ? 'held-out' : 'dev', descriptions: [second.descriptions[0], second.descriptions[0], second.descriptions[2]] },
        ...rest,
      ],
    };
    expect(problemsOf(set, set.people.map((person) => person.id))).toEqual([]);
    expect(problemsOf(broken, [])).toEqual([
      `${first.id}: Visionary cannot be a secondary`,
      `${second.id}: half ${second.half === 'dev' ? 'held-out' : 'dev'}, but its number says ${second.half}`,
      `${second.id}: needs three different descriptions`,
    ]);
  });

  test('when the full plan is made, then each person is sent 3 descriptions, 5 other names and 2 repeats, and each note once', () => {
    const calls = planCalls(set, FULL_PLAN);
    expect(calls.length).toBe(set.people.length * 10 + set.noEvidence.length + set.foreign.length);
    const person = set.people[0];
    const mine = calls.filter((call) => call.itemId === person?.id);
    expect(mine.map((call) => call.purpose)).toEqual(['description', 'description', 'description', ...new Array(5).fill('name-swap'), 'repeat', 'repeat']);
    expect(new Set(mine.filter((call) => call.purpose !== 'description').map((call) => call.body.notes))).toEqual(new Set([person?.descriptions[0]]));
    expect(mine.filter((call) => call.description === 0 && call.purpose !== 'repeat').map((call) => call.body.name)).toEqual(person?.names);
  });

  test('when a subset of four people is asked for, then they come from the four profile groups', () => {
    expect(selectPeople(set.people, 'held-out', 4).map((person) => person.primary)).toEqual(['Trailblazer', 'Catalyst', 'Nurturer', 'Systematizer']);
  });
});
