/**
 * `make snap-no-evidence` (docs/evaluation.md): writes
 * src/upstream/embedded/snap-no-evidence.json, the no-evidence detector learned by
 * `learn-no-evidence.ts` from the development half of the evaluation set (never the
 * held-out half). Run it after the development half changes; a unit test fails while the
 * file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapNoEvidenceFile } from './learn-no-evidence';

const outFile = join(__dirname, '../../../src/upstream/embedded/snap-no-evidence.json');
const file = snapNoEvidenceFile();
// One stem a line, so that a change of the development half reads as a diff of the stems it moved.
const { ratios, ...about } = file;
const lines = Object.entries(ratios).map(([wordStem, ratio]) => `    ${JSON.stringify(wordStem)}: ${JSON.stringify(ratio)}`);
writeFileSync(outFile, `${JSON.stringify(about, null, 2).replace(/\n\}$/u, ',')}\n  "ratios": {\n${lines.join(',\n')}\n  }\n}\n`);
process.stdout.write(`${outFile}: ${lines.length} stems from ${file.notes} notes and ${file.descriptions} descriptions of the development half\n`);
