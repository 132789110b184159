/**
 * Stops and starts the test PostgreSQL and Redis for fault tests. Only for services that
 * scripts/with-test-services.sh started (it sets PPS_TEST_SERVICES_DIR); tests that need
 * this fail loudly otherwise rather than skip.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const SCRIPT = join(__dirname, '../../scripts/test-services.sh');

type Action = 'pg-stop' | 'pg-start' | 'redis-stop' | 'redis-start';

export async function controlService(action: Action): Promise<void> {
  const dir = process.env.PPS_TEST_SERVICES_DIR;
  if (!dir) throw new Error('PPS_TEST_SERVICES_DIR is not set: fault tests need the services of scripts/with-test-services.sh');
  await promisify(execFile)('bash', [SCRIPT, action, dir]);
}
