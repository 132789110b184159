/**
 * `make snap-word-weights` (docs/evaluation.md): writes
 * src/upstream/embedded/snap-word-weights.json, the word weights learned by
 * `learn-word-weights.ts` from the development half of the evaluation set (never the
 * held-out half). Run it after the development half changes; a unit test fails while the
 * file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapWordWeightsFile } from './learn-word-weights';

const outFile = join(__dirname, '../../../src/upstream/embedded/snap-word-weights.json');
const file = snapWordWeightsFile();
// One stem a line, so that a change of the development half reads as a diff of the stems it moved.
const { weights, ...about } = file;
const lines = Object.entries(weights).map(([wordStem, row]) => `    ${JSON.stringify(wordStem)}: ${JSON.stringify(row)}`);
writeFileSync(outFile, `${JSON.stringify(about, null, 2).replace(/\n\}$/u, ',')}\n  "weights": {\n${lines.join(',\n')}\n  }\n}\n`);
process.stdout.write(`${outFile}: ${Object.keys(file.weights).length} stems from ${file.people} development people\n`);
