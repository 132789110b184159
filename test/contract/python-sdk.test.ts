/**
 * The Python SDK, generated from the spec by openapi-python-client, and its example,
 * against the live service.
 */
import { join } from 'node:path';
import { createLiveAccount, expectSnapThenComms, liveService, PROJECT_ROOT } from './support/live-service';
import { run } from './support/run-command';

describe('Python SDK', () => {
  test('when the client is generated from the spec, then its example creates a snap and a comms analysis against the live service, for one credit each', async () => {
    const service = liveService();
    const account = await createLiveAccount(service, 5);

    await run(join(PROJECT_ROOT, 'scripts/contract/generate-python-sdk.sh'), []);
    const stdout = await run(join(PROJECT_ROOT, '.venv/bin/python'), ['examples/python/create_snap_and_comms.py'], {
      PYTHONPATH: join(PROJECT_ROOT, 'dist/sdk/python'),
      PYTHONDONTWRITEBYTECODE: '1',
      PPS_BASE_URL: service.baseUrl,
      PPS_API_KEY: account.apiKey,
    });

    const result = JSON.parse(stdout);
    await expectSnapThenComms(service, account, 5, result);
  });
});
