/**
 * `make snap-no-evidence` (docs/evaluation.md): writes
 * src/upstream/embedded/snap-no-evidence.json, the no-evidence detector learned by
 * `learn-no-evidence.ts` from the development half of the evaluation set (never the
 * held-out half). Run it after the development half changes; a unit test fails while the
 * file is stale.
 */
import { writeLearnedFile } from './learned-file';
import { snapNoEvidenceFile } from './learn-no-evidence';

const { ratios, ...about } = snapNoEvidenceFile();
const outFile = writeLearnedFile('snap-no-evidence.json', about, 'ratios', ratios);
process.stdout.write(`${outFile}: ${Object.keys(ratios).length} stems from ${about.notes} notes and ${about.descriptions} descriptions of the development half\n`);
