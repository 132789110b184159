/**
 * The Python SDK, generated from the spec by openapi-python-client, and its example,
 * against the live service, directly and through a proxy that adds a field no spec names
 * to every response object.
 */
import { join } from 'node:path';
import { exampleTests, pythonExample } from './support/example-tests';
import { PROJECT_ROOT } from './support/live-service';
import { run } from './support/run-command';

const runExample = pythonExample('examples/python/create_snap_and_comms.py', 'dist/sdk/python');

describe('Python SDK', () => {
  beforeAll(async () => {
    await run(join(PROJECT_ROOT, 'scripts/contract/generate-python-sdk.sh'), []);
  }, 300_000);

  exampleTests('Python (openapi-python-client)', runExample);
});
