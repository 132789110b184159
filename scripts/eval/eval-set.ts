/**
 * The project's own evaluation set (eval/set/, docs/evaluation.md): labelled people, each
 * described three ways and given six names, notes with no evidence, and notes in other
 * languages. Read and checked here; the runner and the unit tests share this one reader.
 *
 * The split is fixed by the ids: an odd number is the development half, an even number
 * the held-out half (`labels.json` states each person's half as well, and must agree).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PROFILE_NAMES, RESTRICTED_SECONDARY, isProfileName, type ProfileName } from '../../src/domain/profiles';

export const HALVES = ['dev', 'held-out'] as const;
export type Half = (typeof HALVES)[number];

/** The four groups of three the taxonomy lists its profiles in (src/domain/profiles.ts). */
export const PROFILE_GROUPS: Readonly<Record<string, readonly ProfileName[]>> = {
  Drive: ['Trailblazer', 'Challenger', 'Visionary'],
  Influence: ['Catalyst', 'Connector', 'Ambassador'],
  Support: ['Nurturer', 'Peacemaker', 'Steward'],
  Order: ['Systematizer', 'Precisionist', 'Investigator'],
};

export function groupOf(profile: ProfileName): string {
  const group = Object.entries(PROFILE_GROUPS).find(([, members]) => members.includes(profile));
  if (!group) throw new Error(`${profile} is in no group`);
  return group[0];
}

export interface LabelledPerson {
  id: string;
  half: Half;
  primary: ProfileName;
  /** Secondary profiles a careful reader would accept (never Visionary, never the primary). */
  secondaries: ProfileName[];
  jobType?: string;
  /** What the person was meant to be, written with the label before any description. */
  sketch: string;
  /** The original description and two paraphrases. */
  descriptions: readonly [string, string, string];
  /** Six names of different genders and origins, the first used for the three descriptions. */
  names: readonly string[];
}

export interface NoEvidenceNote {
  id: string;
  half: Half;
  notes: string;
  name: string;
}

export interface ForeignNote {
  id: string;
  half: Half;
  language: string;
  /** The profile the note describes, for a predictor that reads the language. */
  primary: ProfileName;
  notes: string;
  name: string;
}

export interface EvalSet {
  people: LabelledPerson[];
  noEvidence: NoEvidenceNote[];
  foreign: ForeignNote[];
}

/** eval/set/ of the clone, found upward from here: this file runs from scripts/eval/ (jest) and dist/scripts/eval/ (make eval). */
export const EVAL_SET_DIR = [join(__dirname, '../../eval/set'), join(__dirname, '../../../eval/set')].find((dir) => existsSync(join(dir, 'labels.json'))) ?? join(__dirname, '../../eval/set');

/** `tb-07` → held-out; `ne-03` → dev. */
export function halfOf(id: string): Half {
  const number = Number(/-(\d+)$/u.exec(id)?.[1]);
  if (!Number.isInteger(number)) throw new Error(`${id}: an id ends in a number`);
  return number % 2 === 1 ? 'dev' : 'held-out';
}

const readJson = (dir: string, file: string): unknown => JSON.parse(readFileSync(join(dir, file), 'utf8'));

export function loadEvalSet(dir = EVAL_SET_DIR): EvalSet {
  const nameSets = readJson(dir, 'names.json') as string[][];
  const labels = readJson(dir, 'labels.json') as Omit<LabelledPerson, 'descriptions' | 'names'>[];
  const descriptions: Record<string, string[]> = Object.assign(
    {},
    ...readdirSync(join(dir, 'descriptions'))
      .filter((file) => file.endsWith('.json'))
      .sort()
      .map((file) => readJson(join(dir, 'descriptions'), file)),
  );
  const nameSet = (index: number): string[] => nameSets[index % nameSets.length] ?? [];
  const people = labels.map((label, index) => ({ ...label, descriptions: descriptions[label.id] as unknown as LabelledPerson['descriptions'], names: nameSet(index) }));
  const noEvidence = (readJson(dir, 'no-evidence.json') as { id: string; notes: string }[]).map((note, index) => ({ ...note, half: halfOf(note.id), name: nameSet(index)[index % 6] ?? '' }));
  const foreign = (readJson(dir, 'foreign.json') as Omit<ForeignNote, 'half' | 'name'>[]).map((note, index) => ({ ...note, half: halfOf(note.id), name: nameSet(index + 3)[index % 6] ?? '' }));
  const set = { people, noEvidence, foreign };
  const problems = problemsOf(set, Object.keys(descriptions));
  if (problems.length > 0) throw new Error(`the evaluation set in ${dir} is malformed:\n- ${problems.join('\n- ')}`);
  return set;
}

/** What is wrong with a set, as sentences; empty when it is sound. */
export function problemsOf(set: EvalSet, describedIds: readonly string[]): string[] {
  const problems: string[] = [];
  const ids = [...set.people, ...set.noEvidence, ...set.foreign].map((item) => item.id);
  for (const id of new Set(ids.filter((id, index) => ids.indexOf(id) !== index))) problems.push(`${id}: the id is used twice`);
  for (const person of set.people) {
    const where = person.id;
    if (!isProfileName(person.primary)) problems.push(`${where}: unknown primary ${String(person.primary)}`);
    if (person.half !== halfOf(person.id)) problems.push(`${where}: half ${person.half}, but its number says ${halfOf(person.id)}`);
    if (!Array.isArray(person.secondaries) || person.secondaries.length === 0) problems.push(`${where}: no acceptable secondary`);
    for (const secondary of person.secondaries ?? []) {
      if (!isProfileName(secondary) || secondary === RESTRICTED_SECONDARY || secondary === person.primary) problems.push(`${where}: ${String(secondary)} cannot be a secondary`);
    }
    const texts = person.descriptions ?? [];
    if (texts.length !== 3 || new Set(texts).size !== 3 || texts.some((text) => typeof text !== 'string' || text.trim() === '')) {
      problems.push(`${where}: needs three different descriptions`);
    }
    if (person.names.length !== 6 || new Set(person.names).size !== 6) problems.push(`${where}: needs six different names`);
  }
  for (const id of describedIds) if (!set.people.some((person) => person.id === id)) problems.push(`${id}: described but not labelled`);
  for (const note of set.foreign) if (!isProfileName(note.primary)) problems.push(`${note.id}: unknown primary ${String(note.primary)}`);
  for (const note of [...set.noEvidence, ...set.foreign]) if (note.notes.trim() === '' || note.name === '') problems.push(`${note.id}: needs notes and a name`);
  for (const profile of PROFILE_NAMES) {
    for (const half of HALVES) {
      if (!set.people.some((person) => person.primary === profile && person.half === half)) problems.push(`no ${profile} in the ${half} half`);
    }
  }
  return problems;
}
