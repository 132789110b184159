/**
 * A Go client, generated from the spec by oapi-codegen (scripts/contract/generate-go-client.sh),
 * and its example (examples/go/main.go), against the live service. Without Go on the machine
 * this one test is skipped and says so; in CI (CI=true) it fails instead.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createLiveAccount, expectSnapThenComms, liveService, PROJECT_ROOT } from './support/live-service';
import { describeNeeding } from '../support/required-tool';
import { run } from './support/run-command';

const GO = {
  name: 'Go',
  found: spawnSync('sh', ['-c', 'command -v go || test -x /usr/local/go/bin/go']).status === 0,
  install: 'no go on PATH, no /usr/local/go/bin/go; examples/go/go.mod needs Go 1.24 or later: https://go.dev/dl/',
};

describeNeeding(GO, 'Go client (oapi-codegen)', () => {
  test('when the client is generated from the spec, then its example creates a snap and a comms analysis against the live service, read into the generated types', async () => {
    const service = liveService();
    const account = await createLiveAccount(service, 5);

    await run(join(PROJECT_ROOT, 'scripts/contract/generate-go-client.sh'), [], {}, 300_000);
    const stdout = await run(join(PROJECT_ROOT, 'dist/sdk/go/create-snap-and-comms'), [], { PPS_BASE_URL: service.baseUrl, PPS_API_KEY: account.apiKey });

    await expectSnapThenComms(service, account, 5, JSON.parse(stdout));
  });
});
