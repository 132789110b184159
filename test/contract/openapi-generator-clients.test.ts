/**
 * openapi-generator (7.x): the spec generates its python, typescript-fetch and java clients
 * (scripts/contract/generate-openapi-generator-clients.sh; the java one compiled with Maven).
 * The python and java examples run against the live service, directly and through a proxy
 * that adds a field no spec names to every response object; the python one also against a
 * second instance whose fake upstream leaves fields out, so every nullable branch is read
 * into the generated models too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { spawnServer, type SpawnedServer } from '../support/spawned-server';
import { TEST_ADMIN_TOKEN } from '../support/test-server';
import { createLiveAccount, creditsOf, PROJECT_ROOT, type LiveService } from './support/live-service';
import { exampleTests, pythonExample } from './support/example-tests';
import { run } from './support/run-command';

const JAVA = join(PROJECT_ROOT, 'dist/sdk/openapi-generator/java');

async function runJavaExample(baseUrl: string, apiKey: string): Promise<unknown> {
  const classpath = [join(JAVA, 'example-classes'), join(JAVA, 'target/classes'), readFileSync(join(JAVA, 'classpath.txt'), 'utf8').trim()].join(':');
  return JSON.parse(await run('java', ['-cp', classpath, 'CreateSnapAndComms'], { PPS_BASE_URL: baseUrl, PPS_API_KEY: apiKey }));
}

const runExample = pythonExample('examples/openapi-generator/create_snap_and_comms.py', 'dist/sdk/openapi-generator/python');

describe('openapi-generator clients', () => {
  beforeAll(async () => {
    await run(join(PROJECT_ROOT, 'scripts/contract/generate-openapi-generator-clients.sh'), [], {}, 600_000);
  }, 600_000);

  exampleTests('openapi-generator python', runExample);
  exampleTests('openapi-generator java (compiled with Maven)', runJavaExample);

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
      // The comms answer keeps what a usable analysis needs (a summary, one do, one dont, a fit
      // score: anything less is the comms 500, src/domain/comms-sense.ts) and leaves the rest out.
      fake.script(
        reply({ profile: 'Catalyst', primary_code: 'CT' }),
        reply({ summary: 'Lead with the figures.', do: ['Be specific'], dont: ['Hype'], draft_analysis: { fit_score: 50, issues: [] } }),
      );

      const result = await runExample(service.baseUrl, account.apiKey);

      expect(result).toEqual({
        snapId: expect.any(Number),
        snap: {
          name: 'Ada Lovelace',
          profile: 'Catalyst',
          primary_code: 'CT',
          secondary_profile: null,
          secondary_code: null,
          // Earned from the notes' evidence, never taken from the model (src/upstream/openai/earned-confidence.ts).
          confidence: expect.stringMatching(/^(High|Medium|Low)$/),
          reasoning: null,
          summary: null,
          secondary_profile_summary: null,
        },
        commsId: expect.any(Number),
        comms: {
          // The comms answer names the stored snap's profile, not the model's (issue 19).
          profile: 'Catalyst',
          primary_code: 'CT',
          summary: 'Lead with the figures.',
          do: ['Be specific'],
          dont: ['Hype'],
          phrases_to_use: [],
          phrases_to_avoid: [],
          draft_analysis: { fit_score: 50, issues: [], rewrite: null },
        },
      });
      expect(fake.requests).toHaveLength(2);
      expect(await creditsOf(service, account.accountId)).toBe(3);
    });
  });
});
