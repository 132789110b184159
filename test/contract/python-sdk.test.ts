/**
 * The Python SDK, generated from the spec by openapi-python-client, and its example,
 * against the live service.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createLiveAccount, expectSnapThenComms, liveService, PROJECT_ROOT } from './support/live-service';

function run(command: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

describe('Python SDK', () => {
  test('when the client is generated from the spec, then its example creates a snap and a comms analysis against the live service, for one credit each', async () => {
    const service = liveService();
    const account = await createLiveAccount(service, 5);

    run(join(PROJECT_ROOT, 'scripts/contract/generate-python-sdk.sh'), []);
    const stdout = run(join(PROJECT_ROOT, '.venv/bin/python'), ['examples/python/create_snap_and_comms.py'], {
      PYTHONPATH: join(PROJECT_ROOT, 'dist/sdk/python'),
      PYTHONDONTWRITEBYTECODE: '1',
      PPS_BASE_URL: service.baseUrl,
      PPS_API_KEY: account.apiKey,
    });

    const result = JSON.parse(stdout);
    await expectSnapThenComms(service, account, 5, result);
  });
});
