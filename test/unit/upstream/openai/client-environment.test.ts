/**
 * The SDK reads OPENAI_BASE_URL, OPENAI_ORG_ID, OPENAI_PROJECT_ID, OPENAI_ADMIN_KEY,
 * OPENAI_API_VERSION and AZURE_OPENAI_* from the environment when not given a value:
 * the predictor gives every one explicitly, so only the service's configuration decides.
 */
import { reply, startFakeOpenAi, type FakeOpenAi } from '../../../support/fake-openai-server';
import { CONTEXT, aSnapAnswer, aSubject, onlyRequest, predictorFor } from './given';

const SDK_ENVIRONMENT = {
  OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
  OPENAI_ORG_ID: 'org-from-environment',
  OPENAI_PROJECT_ID: 'proj-from-environment',
  OPENAI_ADMIN_KEY: 'admin-from-environment',
  OPENAI_API_VERSION: '1999-01-01',
  AZURE_OPENAI_ENDPOINT: 'http://127.0.0.1:9',
  AZURE_OPENAI_API_KEY: 'azure-from-environment',
};

describe('OpenAiPredictor and the environment', () => {
  let fake: FakeOpenAi;
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    for (const [name, value] of Object.entries(SDK_ENVIRONMENT)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await fake.close();
  });
  beforeEach(() => fake.reset());

  test('when the SDK variables are set in the environment, then an OpenAI-compatible call uses none of them', async () => {
    fake.script(reply(aSnapAnswer()));
    await predictorFor(fake).predictSnap(aSubject(), CONTEXT);
    const { headers, path } = onlyRequest(fake);
    expect(path).toBe('/v1/chat/completions');
    expect(headers['openai-organization']).toBeUndefined();
    expect(headers['openai-project']).toBeUndefined();
    expect(JSON.stringify(headers)).not.toContain('from-environment');
  });

  test('when the SDK variables are set in the environment, then an Azure call uses the configured endpoint, key and version', async () => {
    fake.script(reply(aSnapAnswer()));
    const azure = predictorFor(fake, { kind: 'azure', baseURL: fake.baseURL.replace(/\/v1$/, ''), apiKey: 'azure-configured', apiVersion: '2024-10-21', model: 'dep' });
    await azure.predictSnap(aSubject(), CONTEXT);
    const { headers, path, query } = onlyRequest(fake);
    expect(path).toBe('/openai/deployments/dep/chat/completions');
    expect(query).toEqual({ 'api-version': '2024-10-21' });
    expect(headers['api-key']).toBe('azure-configured');
    expect(JSON.stringify(headers)).not.toContain('from-environment');
  });
});
