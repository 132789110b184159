/**
 * A Go client, generated from the spec by oapi-codegen (scripts/contract/generate-go-client.sh),
 * and its example (examples/go/main.go), against the live service, directly and through a
 * proxy that adds a field no spec names to every response object. Without Go on the machine
 * these tests are skipped and say so; in CI (CI=true) they fail instead.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describeNeeding } from '../support/required-tool';
import { exampleTests } from './support/example-tests';
import { PROJECT_ROOT } from './support/live-service';
import { run } from './support/run-command';

const GO = {
  name: 'Go',
  found: spawnSync('sh', ['-c', 'command -v go || test -x /usr/local/go/bin/go']).status === 0,
  install: 'no go on PATH, no /usr/local/go/bin/go; examples/go/go.mod needs Go 1.24 or later: https://go.dev/dl/',
};

async function runExample(baseUrl: string, apiKey: string): Promise<unknown> {
  return JSON.parse(await run(join(PROJECT_ROOT, 'dist/sdk/go/create-snap-and-comms'), [], { PPS_BASE_URL: baseUrl, PPS_API_KEY: apiKey }));
}

describeNeeding(GO, 'Go client (oapi-codegen)', () => {
  beforeAll(async () => {
    await run(join(PROJECT_ROOT, 'scripts/contract/generate-go-client.sh'), [], {}, 300_000);
  }, 300_000);

  exampleTests('Go (oapi-codegen)', runExample);
});
