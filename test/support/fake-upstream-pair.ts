/**
 * Two fake OpenAI servers, a primary and a fallback, for the tests of the upstream's
 * fallback and retries: started before the file's tests, reset before each, closed after.
 * Call it at the top of a test file (it registers jest's hooks).
 */
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai-server';
import { startTestServer, type TestServer } from './test-server';

export interface PrimaryAndFallback {
  readonly primary: FakeOpenAi;
  readonly fallback: FakeOpenAi;
  /** Runs `run` against a service whose environment is `serverEnv(fakes)` and then `env`, and closes it. */
  withServer(env: Record<string, string>, run: (server: TestServer) => Promise<void>): Promise<void>;
}

export function startPrimaryAndFallback(serverEnv: (fakes: { primary: FakeOpenAi; fallback: FakeOpenAi }) => Record<string, string>): PrimaryAndFallback {
  let fakes: { primary: FakeOpenAi; fallback: FakeOpenAi } | undefined;
  const started = () => {
    if (!fakes) throw new Error('the fake upstreams start in beforeAll: use them inside a test');
    return fakes;
  };

  beforeAll(async () => {
    fakes = { primary: await startFakeOpenAi(), fallback: await startFakeOpenAi() };
  });

  afterAll(async () => {
    await fakes?.primary.close();
    await fakes?.fallback.close();
  });

  beforeEach(() => {
    started().primary.reset();
    started().fallback.reset();
  });

  return {
    get primary() {
      return started().primary;
    },
    get fallback() {
      return started().fallback;
    },
    async withServer(env, run) {
      const server = await startTestServer({ ...serverEnv(started()), ...env });
      try {
        await run(server);
      } finally {
        await server.close();
      }
    },
  };
}
