/**
 * A Go client, generated from the spec by oapi-codegen (scripts/contract/generate-go-client.sh),
 * and its example (examples/go/main.go), against the live service, directly and through a
 * proxy that adds a field no spec names to every response object. Go is needed: on CI
 * (CI=true) a machine without it fails here; elsewhere these tests are skipped, and say so.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { exampleTests } from './support/example-tests';
import { PROJECT_ROOT } from './support/live-service';
import { run } from './support/run-command';

const GO_INSTALLED = spawnSync('sh', ['-c', 'command -v go || test -x /usr/local/go/bin/go']).status === 0;
const ON_CI = process.env.CI === 'true';
const MISSING = 'Go is not installed (no go on PATH, no /usr/local/go/bin/go): the Go client is NOT tested';
if (!GO_INSTALLED) console.warn(`go-client.test.ts: ${MISSING}`);

async function runExample(baseUrl: string, apiKey: string): Promise<unknown> {
  return JSON.parse(await run(join(PROJECT_ROOT, 'dist/sdk/go/create-snap-and-comms'), [], { PPS_BASE_URL: baseUrl, PPS_API_KEY: apiKey }));
}

if (!GO_INSTALLED && ON_CI) {
  test('Go client (oapi-codegen): Go must be installed on CI', () => {
    throw new Error(`${MISSING}; CI=true, so this is a failure: install Go (https://go.dev/dl/) into /usr/local/go`);
  });
}

(GO_INSTALLED ? describe : describe.skip)('Go client (oapi-codegen)', () => {
  beforeAll(async () => {
    await run(join(PROJECT_ROOT, 'scripts/contract/generate-go-client.sh'), [], {}, 300_000);
  }, 300_000);

  exampleTests('Go (oapi-codegen)', runExample);
});
