/**
 * `make snap-word-weights` (docs/evaluation.md): writes
 * src/upstream/embedded/snap-word-weights.json, the word weights learned by
 * `learn-word-weights.ts` from the development half of the evaluation set (never the
 * held-out half). Run it after the development half changes; a unit test fails while the
 * file is stale.
 */
import { writeLearnedFile } from './learned-file';
import { snapWordWeightsFile } from './learn-word-weights';

const { weights, ...about } = snapWordWeightsFile();
const outFile = writeLearnedFile('snap-word-weights.json', about, 'weights', weights);
process.stdout.write(`${outFile}: ${Object.keys(weights).length} stems from ${about.people} development people\n`);
