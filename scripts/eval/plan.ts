/**
 * Which requests an evaluation sends (docs/evaluation.md): for each person, the three
 * descriptions under the first name, the original under each other name (name swap), and
 * the original again (repeatability); each no-evidence and each foreign-language note once.
 * A subset keeps the first people of each half, taken round the four profile groups in turn.
 */
import { PROFILE_NAMES } from '../../src/domain/profiles';
import { PROFILE_GROUPS, type EvalSet, type Half, type LabelledPerson } from './eval-set';

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
