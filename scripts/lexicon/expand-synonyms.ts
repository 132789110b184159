/**
 * `make lexicon-synonyms` (docs/evaluation.md): writes
 * src/upstream/embedded/snap-synonyms.json from the rule in `wordnet-synonyms.ts`. Run it
 * after changing the lexicon's terms; a unit test fails while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { wordnetSynonyms } from './wordnet-synonyms';

const outFile = join(__dirname, '../../../src/upstream/embedded/snap-synonyms.json');
const file = wordnetSynonyms();
writeFileSync(outFile, `${JSON.stringify(file, null, 2)}\n`);
process.stdout.write(`${outFile}: ${Object.values(file.synonyms).reduce((sum, words) => sum + words.length, 0)} synonyms\n`);
