/**
 * openapi-generator (7.x): the spec validates and generates its python, typescript-fetch and
 * java clients (scripts/contract/generate-openapi-generator-clients.sh); the python client's
 * example runs against the live service, and against a second instance whose fake upstream
 * leaves fields out, so every nullable branch is read into the generated models too.
 */
import { join } from 'node:path';
import { reply, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { spawnServer, type SpawnedServer } from '../support/spawned-server';
import { TEST_ADMIN_TOKEN } from '../support/test-server';
import { createLiveAccount, creditsOf, expectSnapThenComms, liveService, PROJECT_ROOT, type LiveService } from './support/live-service';
import { run } from './support/run-command';

const EXAMPLE = 'examples/openapi-generator/create_snap_and_comms.py';

async function runExample(baseUrl: string, apiKey: string): Promise<unknown> {
  const stdout = await run(join(PROJECT_ROOT, '.venv/bin/python'), [EXAMPLE], {
    PYTHONPATH: join(PROJECT_ROOT, 'dist/sdk/openapi-generator/python'),
    PYTHONDONTWRITEBYTECODE: '1',
    PPS_BASE_URL: baseUrl,
    PPS_API_KEY: apiKey,
  });
  return JSON.parse(stdout);
}

describe('openapi-generator clients', () => {
  beforeAll(async () => {
    await run(join(PROJECT_ROOT, 'scripts/contract/generate-openapi-generator-clients.sh'), [], {}, 300_000);
  }, 300_000);

  test('when the python client is generated from the spec, then its example creates a snap and a comms analysis against the live service', async () => {
    const service = liveService();
    const account = await createLiveAccount(service, 5);
    await expectSnapThenComms(service, account, 5, await runExample(service.baseUrl, account.apiKey));
  });

  describe('when the upstream leaves fields out', () => {
    let fake: FakeOpenAi;
    let server: SpawnedServer;
    let service: LiveService;

    beforeAll(async () => {
      fake = await startFakeOpenAi();
      server = await spawnServer({ OPENAI_API_KEY: 'sk-contract-test', OPENAI_BASE_URL: fake.baseURL, OPENAI_MAX_RETRIES: '0' });
      service = { baseUrl: server.url, adminUrl: server.adminUrl, adminToken: TEST_ADMIN_TOKEN };
    });

    afterAll(async () => {
      server?.child.kill('SIGTERM');
      await server?.exited;
      await fake?.close();
    });

    test('then the python client reads every null into its models', async () => {
      const account = await createLiveAccount(service, 5);
      fake.script(reply({ profile: 'Catalyst', primary_code: 'CT' }), reply({ draft_analysis: { issues: [] } }));

      const result = await runExample(service.baseUrl, account.apiKey);

      expect(result).toEqual({
        snapId: expect.any(Number),
        snap: {
          name: 'Ada Lovelace',
          profile: 'Catalyst',
          primary_code: 'CT',
          secondary_profile: null,
          secondary_code: null,
          confidence: null,
          reasoning: null,
          summary: null,
          secondary_profile_summary: null,
        },
        commsId: expect.any(Number),
        comms: {
          profile: null,
          primary_code: null,
          summary: null,
          do: [],
          dont: [],
          phrases_to_use: [],
          phrases_to_avoid: [],
          draft_analysis: { fit_score: null, issues: [], rewrite: null },
        },
      });
      expect(fake.requests).toHaveLength(2);
      expect(await creditsOf(service, account.accountId)).toBe(3);
    });
  });
});
