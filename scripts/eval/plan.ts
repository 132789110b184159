/**
 * Which requests an evaluation sends (docs/evaluation.md): for each person, the three
 * descriptions under the first name, the original under each other name (name swap), and
 * the original again (repeatability); each no-evidence and each foreign-language note once.
 * A subset keeps the first people of each half, taken round the four profile groups in turn.
 */
import { PROFILE_NAMES } from '../../src/domain/profiles';
import { HALVES, PROFILE_GROUPS, type EvalSet, type Half, type LabelledPerson } from './eval-set';

export type Purpose = 'description' | 'name-swap' | 'repeat' | 'no-evidence' | 'foreign';

export interface PlannedCall {
  half: Half;
  purpose: Purpose;
  /** The person's or the note's id. */
  itemId: string;
  /** Which description (0 the original, 1 and 2 the paraphrases); 0 for notes. */
  description: number;
  body: { name: string; notes: string; jobType?: string };
}

export interface PlanOptions {
  halves: readonly Half[];
  /** People per half (all when undefined), spread over the profiles. */
  people?: number;
  /** Descriptions per person: 1 (the original) or 3. */
  descriptions: 1 | 3;
  /** Names the original is sent under (1–6). */
  names: number;
  /** Times the original is sent under the first name (1–3). */
  repeats: number;
  /** No-evidence and foreign notes per half (all when undefined). */
  noEvidence?: number;
  foreign?: number;
}

export const FULL_PLAN: PlanOptions = { halves: ['dev', 'held-out'], descriptions: 3, names: 6, repeats: 3 };

/** Profiles in an order that visits the groups in turn: Trailblazer, Catalyst, Nurturer, Systematizer, Challenger, … */
const SPREAD = [0, 1, 2].flatMap((slot) => Object.values(PROFILE_GROUPS).map((members) => members[slot] as (typeof PROFILE_NAMES)[number]));

export function selectPeople(people: readonly LabelledPerson[], half: Half, count: number | undefined): LabelledPerson[] {
  const inHalf = people.filter((person) => person.half === half);
  if (count === undefined) return inHalf;
  const queues = SPREAD.map((profile) => inHalf.filter((person) => person.primary === profile));
  const chosen: LabelledPerson[] = [];
  for (let round = 0; chosen.length < count && round < inHalf.length; round += 1) {
    for (const queue of queues) {
      const next = queue[round];
      if (next && chosen.length < count) chosen.push(next);
    }
  }
  return chosen;
}

export function planCalls(set: EvalSet, options: PlanOptions): PlannedCall[] {
  const calls: PlannedCall[] = [];
  for (const half of options.halves) {
    for (const person of selectPeople(set.people, half, options.people)) {
      const body = (description: number, name: string) => ({ name, notes: person.descriptions[description] as string, ...(person.jobType ? { jobType: person.jobType } : {}) });
      const first = person.names[0] as string;
      for (let d = 0; d < options.descriptions; d += 1) calls.push({ half, purpose: 'description', itemId: person.id, description: d, body: body(d, first) });
      for (const name of person.names.slice(1, options.names)) calls.push({ half, purpose: 'name-swap', itemId: person.id, description: 0, body: body(0, name) });
      for (let r = 1; r < options.repeats; r += 1) calls.push({ half, purpose: 'repeat', itemId: person.id, description: 0, body: body(0, first) });
    }
    const inHalf = <T extends { half: Half }>(notes: readonly T[], count: number | undefined) => notes.filter((note) => note.half === half).slice(0, count);
    for (const note of inHalf(set.noEvidence, options.noEvidence)) calls.push({ half, purpose: 'no-evidence', itemId: note.id, description: 0, body: { name: note.name, notes: note.notes } });
    for (const note of inHalf(set.foreign, options.foreign)) calls.push({ half, purpose: 'foreign', itemId: note.id, description: 0, body: { name: note.name, notes: note.notes } });
  }
  return calls;
}

export function integerFromEnv<T extends number | undefined>(env: NodeJS.ProcessEnv, name: string, fallback: T, min: number, max: number): number | T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}, not ${raw}`);
  return value;
}

/** The plan `base` with what the EVAL_* variables change (run-eval.ts lists them). */
export function planFromEnv(env: NodeJS.ProcessEnv, base: PlanOptions): PlanOptions {
  const halves = (env.EVAL_HALVES ?? base.halves.join(',')).split(',').map((half) => half.trim());
  for (const half of halves) if (!(HALVES as readonly string[]).includes(half)) throw new Error(`EVAL_HALVES: unknown half ${half} (dev, held-out)`);
  const descriptions = integerFromEnv(env, 'EVAL_DESCRIPTIONS', base.descriptions, 1, 3);
  if (descriptions !== 1 && descriptions !== 3) throw new Error('EVAL_DESCRIPTIONS must be 1 or 3');
  return {
    halves: halves as Half[],
    people: integerFromEnv(env, 'EVAL_PEOPLE', base.people, 1, 100_000),
    descriptions,
    names: integerFromEnv(env, 'EVAL_NAMES', base.names, 1, 6),
    repeats: integerFromEnv(env, 'EVAL_REPEATS', base.repeats, 1, 3),
    noEvidence: integerFromEnv(env, 'EVAL_NO_EVIDENCE', base.noEvidence, 0, 100_000),
    foreign: integerFromEnv(env, 'EVAL_FOREIGN', base.foreign, 0, 100_000),
  };
}
