/**
 * The embedded predictor's WordNet synonyms (src/upstream/embedded/snap-synonyms.json) are
 * what their generator's rule gives for today's lexicon: a lexicon change without
 * `make lexicon-synonyms`, or a hand edit of the file, fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wordnetSynonyms } from '../../../scripts/lexicon/wordnet-synonyms';

const committed = JSON.parse(readFileSync(join(__dirname, '../../../src/upstream/embedded/snap-synonyms.json'), 'utf8')) as unknown;
const generated = wordnetSynonyms();

describe('the WordNet synonyms of the lexicon', () => {
  test('when the generator runs on the lexicon, then it gives exactly the committed file', () => {
    expect(committed).toEqual(generated);
  });

  test('when a synonym comes from a sense about people, things or states, or reads off-sense, then it is left out', () => {
    const all = Object.values(generated.synonyms).flat();
    for (const word of ['streetwalker', 'hooker', 'vestibule', 'laminitis', 'pester', 'midget', 'baffle', 'everyday']) expect([word, all.includes(word)]).toEqual([word, false]);
    expect(all.length).toBeGreaterThan(100);
  });
});
