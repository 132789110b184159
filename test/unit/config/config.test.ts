import { ConfigError, loadConfig } from '../../../src/config/config';

describe('loadConfig', () => {
  test('when nothing is set, then the embedded defaults apply', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 3000,
      adminHost: '127.0.0.1',
      adminPort: 3001,
      adminToken: undefined,
      adminTokenFailuresPerMinute: 10,
      databaseUrl: undefined,
      dataDir: './.data',
      redisUrl: undefined,
      rateLimitMax: 120,
      rateLimitWindowSeconds: 60,
      trustProxy: false,
      openai: undefined,
      validateResponses: true,
      requestTimeoutSeconds: 30,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('when OPENAI_API_KEY is set, then the OpenAI settings come with their defaults and the time budget follows from them', () => {
    const config = loadConfig({ OPENAI_API_KEY: 'sk-x' });
    // A snap attempt: 5 s + 1,000 tokens at 50/s; comms: 5 s + 4,000 at 50/s. Two attempts and an 8 s back-off.
    expect(config.timeBudget).toEqual({
      upstream: {
        wholeMs: { predictSnap: 58_000, analyseComms: 178_000 },
        primary: { predictSnap: { callMs: 58_000, attemptMs: 25_000 }, analyseComms: { callMs: 178_000, attemptMs: 85_000 } },
        fallback: undefined,
      },
      longestUpstreamMs: 178_000,
      // Plus 15 s to store the result: the hold's lease and the shutdown's default; the sweeper looks every 30 s at most.
      longestCallMs: 193_000,
      holdLeaseSeconds: 193,
      sweepIntervalMs: 30_000,
      shutdownMs: 193_000,
      // Each statement waits at most 5 s for its answer (part of the 15 s to store).
      statementMs: 5_000,
    });
    expect(config.openai).toEqual({
      primary: { kind: 'openai', apiKey: 'sk-x', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', maxTokensParameter: 'max_completion_tokens' },
      fallback: undefined,
      maxRetries: 1,
      maxOutputTokens: { predictSnap: 1000, analyseComms: 4000 },
      temperature: 0,
      seed: undefined,
      reasoningEffort: undefined,
      schemaLengthBounds: false,
      maxSockets: 256,
      breakerFailures: 5,
      breakerCooldownSeconds: 30,
    });
  });

  test('when the upstream bounds and sampling are set, then they are read', () => {
    const { openai, timeBudget } = loadConfig({
      OPENAI_API_KEY: 'sk-x',
      OPENAI_TIMEOUT_SECONDS: '200',
      OPENAI_ATTEMPT_TIMEOUT_SECONDS: '90',
      OPENAI_MAX_OUTPUT_TOKENS: '4000',
      OPENAI_MAX_TOKENS_PARAMETER: 'max_tokens',
      OPENAI_TEMPERATURE: '0.7',
      OPENAI_SEED: '42',
      OPENAI_REASONING_EFFORT: 'low',
    });
    // Without a fallback the primary has all of the whole.
    expect(timeBudget.upstream).toEqual({
      wholeMs: { predictSnap: 200_000, analyseComms: 200_000 },
      primary: { predictSnap: { callMs: 200_000, attemptMs: 90_000 }, analyseComms: { callMs: 200_000, attemptMs: 90_000 } },
      fallback: undefined,
    });
    expect(openai).toMatchObject({
      primary: { maxTokensParameter: 'max_tokens' },
      maxOutputTokens: { predictSnap: 4000, analyseComms: 4000 },
      temperature: 0.7,
      seed: 42,
      reasoningEffort: 'low',
    });
  });

  test.each([
    ['127.0.0.1', 'http://127.0.0.1:8080/v1'],
    ['localhost', 'http://localhost:11434/v1'],
    ['::1', 'http://[::1]:8000/v1'],
  ])('when the base URL is plain http: to this machine (%s), then it is accepted', (_, url) => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: url }).openai?.primary.baseUrl).toBe(url);
  });

  test('when the base URL is plain http: to a name under .localhost, then it is refused like any other host: a resolver may send it to DNS', () => {
    expect(() => loadConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'http://models.localhost:8080/v1' })).toThrow(/OPENAI_BASE_URL is a plain http: URL to a host other than this machine/);
  });

  test('when OPENAI_ALLOW_INSECURE_HTTP is true, then a plain http: URL to another host is accepted', () => {
    const url = 'http://vllm.internal:8000/v1';
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: url, OPENAI_ALLOW_INSECURE_HTTP: 'true' }).openai?.primary.baseUrl).toBe(url);
  });

  test("when a fallback is set, then its bound's name is the primary's unless OPENAI_FALLBACK_MAX_TOKENS_PARAMETER names its own", () => {
    const ollama = { OPENAI_API_KEY: 'sk-x', OPENAI_FALLBACK_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_FALLBACK_API_KEY: 'ollama' };
    const names = (env: Record<string, string>) => {
      const { openai } = loadConfig(env);
      return [openai?.primary.maxTokensParameter, openai?.fallback?.maxTokensParameter];
    };

    expect(names(ollama)).toEqual(['max_completion_tokens', 'max_completion_tokens']);
    expect(names({ ...ollama, OPENAI_FALLBACK_MAX_TOKENS_PARAMETER: 'max_tokens' })).toEqual(['max_completion_tokens', 'max_tokens']);
    expect(names({ ...ollama, OPENAI_MAX_TOKENS_PARAMETER: 'max_tokens' })).toEqual(['max_tokens', 'max_tokens']);
  });

  test('when OPENAI_TEMPERATURE is set but empty, then no temperature is sent', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_TEMPERATURE: '' }).openai?.temperature).toBeUndefined();
  });

  test('when a fallback is set, then each route whole budget doubles: the fallback gets as much as the primary', () => {
    const { openai, timeBudget } = loadConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_FALLBACK_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_FALLBACK_API_KEY: 'ollama', OPENAI_FALLBACK_MODEL: 'llama3.1' });
    expect(openai).toMatchObject({ fallback: { kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'ollama', model: 'llama3.1' } });
    expect(timeBudget.upstream).toMatchObject({
      wholeMs: { predictSnap: 116_000 },
      primary: { predictSnap: { callMs: 58_000, attemptMs: 25_000 } },
      fallback: { predictSnap: { callMs: 116_000, attemptMs: 25_000 } },
    });
  });

  test('when a fallback is set with OPENAI_TIMEOUT_SECONDS, then the primary gets at most half of it', () => {
    const { upstream } = loadConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_FALLBACK_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_FALLBACK_API_KEY: 'k', OPENAI_TIMEOUT_SECONDS: '200' }).timeBudget;
    expect([upstream?.wholeMs.analyseComms, upstream?.primary.analyseComms, upstream?.fallback?.analyseComms]).toEqual([200_000, { callMs: 100_000, attemptMs: 85_000 }, { callMs: 200_000, attemptMs: 85_000 }]);
  });

  test.each([
    ['nothing', {}, { predictSnap: 1000, analyseComms: 4000 }],
    ['OPENAI_MAX_OUTPUT_TOKENS', { OPENAI_MAX_OUTPUT_TOKENS: '600' }, { predictSnap: 600, analyseComms: 600 }],
    ['a bound per route', { OPENAI_MAX_OUTPUT_TOKENS: '600', OPENAI_MAX_OUTPUT_TOKENS_COMMS: '3000' }, { predictSnap: 600, analyseComms: 3000 }],
    ['the snap route\'s bound only', { OPENAI_MAX_OUTPUT_TOKENS_SNAP: '400' }, { predictSnap: 400, analyseComms: 4000 }],
  ])('when %s is set, then each route gets its own output bound', (_name, env, want) => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x', ...env }).openai?.maxOutputTokens).toEqual(want);
  });

  test('when the token bounds are lower or the stated speed higher, then the derived budgets shrink with them', () => {
    const { timeBudget } = loadConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_MAX_OUTPUT_TOKENS: '500', OPENAI_MIN_TOKENS_PER_SECOND: '100', OPENAI_FIRST_TOKEN_SECONDS: '2', OPENAI_MAX_RETRIES: '0' });
    expect([timeBudget.upstream?.wholeMs.predictSnap, timeBudget.upstream?.primary.predictSnap]).toEqual([7000, { callMs: 7000, attemptMs: 7000 }]);
    expect(timeBudget.longestUpstreamMs).toBe(7000);
  });

  const AZURE = { AZURE_OPENAI_ENDPOINT: 'https://acme.openai.azure.com', AZURE_OPENAI_API_KEY: 'az-key', AZURE_OPENAI_DEPLOYMENT: 'gpt-4o-prod', AZURE_OPENAI_API_VERSION: '2024-10-21' };
  const AZURE_ENDPOINT = { kind: 'azure', baseUrl: 'https://acme.openai.azure.com', apiKey: 'az-key', model: 'gpt-4o-prod', apiVersion: '2024-10-21' };

  test('when only a classic Azure deployment is set, then it is the primary', () => {
    expect(loadConfig(AZURE).openai).toMatchObject({ primary: AZURE_ENDPOINT, fallback: undefined });
  });

  test('when OPENAI_API_KEY and a classic Azure deployment are set, then Azure is the fallback', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x', ...AZURE }).openai).toMatchObject({ primary: { kind: 'openai' }, fallback: AZURE_ENDPOINT });
  });

  test.each<[string, Record<string, string>, RegExp]>([
    ['part of a classic Azure deployment', { AZURE_OPENAI_ENDPOINT: 'https://acme.openai.azure.com' }, /AZURE_OPENAI_API_KEY, AZURE_OPENAI_DEPLOYMENT, AZURE_OPENAI_API_VERSION must be set too/],
    ['Azure with OPENAI_BASE_URL and no OPENAI_API_KEY', { ...AZURE, OPENAI_BASE_URL: 'https://acme.openai.azure.com/openai/v1' }, /OPENAI_BASE_URL set beside AZURE_OPENAI_ENDPOINT/],
    ['two fallbacks', { OPENAI_API_KEY: 'sk-x', ...AZURE, OPENAI_FALLBACK_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_FALLBACK_API_KEY: 'k' }, /OPENAI_FALLBACK_BASE_URL and AZURE_OPENAI_ENDPOINT both name a fallback/],
    ['a fallback without a primary', { OPENAI_FALLBACK_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_FALLBACK_API_KEY: 'k' }, /OPENAI_FALLBACK_BASE_URL, OPENAI_FALLBACK_API_KEY set without OPENAI_API_KEY/],
    ['a fallback without its key', { OPENAI_API_KEY: 'sk-x', OPENAI_FALLBACK_BASE_URL: 'http://127.0.0.1:1/v1' }, /OPENAI_FALLBACK_API_KEY must be set/],
    ['OPENAI_CUSTOM_HEADERS', { OPENAI_API_KEY: 'sk-x', OPENAI_CUSTOM_HEADERS: 'X-Team: a' }, /OPENAI_CUSTOM_HEADERS is not supported/],
    ['an unknown max-tokens parameter', { OPENAI_API_KEY: 'sk-x', OPENAI_MAX_TOKENS_PARAMETER: 'max_output_tokens' }, /OPENAI_MAX_TOKENS_PARAMETER must be one of/],
    ["a fallback's max-tokens parameter without a fallback", { OPENAI_API_KEY: 'sk-x', OPENAI_FALLBACK_MAX_TOKENS_PARAMETER: 'max_tokens' }, /OPENAI_FALLBACK_MAX_TOKENS_PARAMETER set without a fallback/],
    ['a temperature above 2', { OPENAI_API_KEY: 'sk-x', OPENAI_TEMPERATURE: '3' }, /OPENAI_TEMPERATURE must be a number from 0 to 2/],
    ['a seed that is not whole', { OPENAI_API_KEY: 'sk-x', OPENAI_SEED: '1.5' }, /OPENAI_SEED must be a whole number/],
    ['an unknown reasoning effort', { OPENAI_API_KEY: 'sk-x', OPENAI_REASONING_EFFORT: 'extreme' }, /OPENAI_REASONING_EFFORT must be one of/],
    ['an attempt timeout above the whole', { OPENAI_API_KEY: 'sk-x', OPENAI_MIN_TOKENS_PER_SECOND: '1000', OPENAI_TIMEOUT_SECONDS: '10', OPENAI_ATTEMPT_TIMEOUT_SECONDS: '11' }, /OPENAI_TIMEOUT_SECONDS must be at least 11 \(got 10\): one attempt must fit/],
    ['an attempt timeout shorter than the comms bound takes at the stated speed', { OPENAI_API_KEY: 'sk-x', OPENAI_ATTEMPT_TIMEOUT_SECONDS: '15' }, /OPENAI_ATTEMPT_TIMEOUT_SECONDS must be at least 25 \(got 15\): the snap route's bound of 1000 output tokens \(OPENAI_MAX_OUTPUT_TOKENS\) can take 25 s at OPENAI_MIN_TOKENS_PER_SECOND \(50\)/],
    ['a whole timeout shorter than one comms attempt', { OPENAI_API_KEY: 'sk-x', OPENAI_TIMEOUT_SECONDS: '30' }, /OPENAI_TIMEOUT_SECONDS must be at least 85 \(got 30\): one attempt must fit, and the comms route's bound of 4000 output tokens/],
    ['a whole timeout that leaves the primary, with a fallback, less than one attempt', { OPENAI_API_KEY: 'sk-x', OPENAI_FALLBACK_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_FALLBACK_API_KEY: 'k', OPENAI_TIMEOUT_SECONDS: '100' }, /OPENAI_TIMEOUT_SECONDS must be at least 170 \(got 100\): one attempt must fit \(with a fallback the primary gets half of it\)/],
    ['a plain http: base URL to a remote host', { OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'http://llm.example.com/v1' }, /OPENAI_BASE_URL is a plain http: URL to a host other than this machine/],
    ['a plain http: fallback on a private address', { OPENAI_API_KEY: 'sk-x', OPENAI_FALLBACK_BASE_URL: 'http://10.0.0.5:8000/v1', OPENAI_FALLBACK_API_KEY: 'k' }, /OPENAI_FALLBACK_BASE_URL is a plain http: URL/],
    ['a plain http: Azure endpoint', { AZURE_OPENAI_ENDPOINT: 'http://acme.openai.azure.com', AZURE_OPENAI_API_KEY: 'k', AZURE_OPENAI_DEPLOYMENT: 'd', AZURE_OPENAI_API_VERSION: 'v' }, /AZURE_OPENAI_ENDPOINT is a plain http: URL/],
    ['a stated speed of zero', { OPENAI_API_KEY: 'sk-x', OPENAI_MIN_TOKENS_PER_SECOND: '0' }, /OPENAI_MIN_TOKENS_PER_SECOND must be a number from 0.1/],
    ['a tiny output bound', { OPENAI_API_KEY: 'sk-x', OPENAI_MAX_OUTPUT_TOKENS: '8' }, /OPENAI_MAX_OUTPUT_TOKENS must be a number from 16/],
  ])('when %s is set, then startup is refused, naming the variables', (_name, env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  test.each([
    ['the embedded predictor', {}, 15],
    ['the default upstream budgets (comms: 178 s)', { OPENAI_API_KEY: 'sk-x' }, 193],
    ['a 90 s upstream timeout', { OPENAI_API_KEY: 'sk-x', OPENAI_TIMEOUT_SECONDS: '90' }, 105],
  ])('when SHUTDOWN_TIMEOUT_SECONDS is unset with %s, then it lets the longest paid call finish (%p s)', (_name, env, want) => {
    expect(loadConfig(env).timeBudget.shutdownMs).toBe(want * 1000);
  });

  test('when SHUTDOWN_TIMEOUT_SECONDS is shorter than the longest paid call, then startup is refused naming both variables', () => {
    expect(() => loadConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_TIMEOUT_SECONDS: '90', SHUTDOWN_TIMEOUT_SECONDS: '10' })).toThrow(
      new ConfigError(
        'SHUTDOWN_TIMEOUT_SECONDS',
        'must be at least 105 (got 10): OPENAI_TIMEOUT_SECONDS (90) plus 15 s to store the result, so that a shutdown lets paid calls in flight finish',
      ),
    );
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x', OPENAI_TIMEOUT_SECONDS: '90', SHUTDOWN_TIMEOUT_SECONDS: '120' }).timeBudget.shutdownMs).toBe(120_000);
  });

  test.each([
    ['unset', undefined, false],
    ['false', 'false', false],
    ['true', 'true', true],
    ['a hop count', '2', 2],
    ['a list of subnets', 'loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
  ])('when TRUST_PROXY is %s, then Express gets %p', (_name, value, want) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(want);
  });

  test('when NODE_ENV is production, then responses are not validated unless asked', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).validateResponses).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', VALIDATE_RESPONSES: 'true' }).validateResponses).toBe(true);
  });

  test.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['RATE_LIMIT_MAX', '0'],
    ['RATE_LIMIT_WINDOW_SECONDS', '1.5'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['REDIS_URL', 'not a url'],
    ['ADMIN_TOKEN', 'short'],
    ['LOG_LEVEL', 'loud'],
    ['VALIDATE_RESPONSES', 'maybe'],
    ['TRUST_PROXY', 'every$one'],
  ])('when %s is %p, then startup stops with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  test.each([
    ['.env.example\'s old placeholder', 'change-me-to-a-long-random-secret'],
    ['docs/operations.md\'s old example', 'change-me-to-a-long-secret'],
    ['a short placeholder', 'change-me'],
    ['any value starting so', 'CHANGEME-0123456789abcdef'],
  ])('when ADMIN_TOKEN is %s, then startup refuses it, saying how to make one, without echoing it', (_name, token) => {
    expect(() => loadConfig({ ADMIN_TOKEN: token })).toThrow(ConfigError);
    // An Error given to toThrow: the whole message is compared, so the token is not in it.
    expect(() => loadConfig({ ADMIN_TOKEN: token })).toThrow(
      new Error('Invalid configuration: ADMIN_TOKEN is a placeholder (it starts with "change-me"): set a random secret of your own, e.g. the output of openssl rand -hex 32'),
    );
  });

  test('when ADMIN_TOKEN is a random secret that merely contains change-me, then it is taken', () => {
    expect(loadConfig({ ADMIN_TOKEN: '3f9c0a-change-me-7be1d2' }).adminToken).toBe('3f9c0a-change-me-7be1d2');
  });

  test('when a URL with a password is invalid, then the message does not repeat it', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(/^(?!.*hunter2).*DATABASE_URL/);
  });
});

describe('loadConfig: admission and the failure budget', () => {
  test.each([
    ['the embedded predictor and the default pool', {}, 200],
    ['an upstream with its default sockets', { OPENAI_API_KEY: 'sk-x' }, 200],
    ['an upstream with 10 sockets and a pool of 4', { OPENAI_API_KEY: 'sk-x', OPENAI_MAX_SOCKETS: '10', DATABASE_POOL_MAX: '4' }, 10],
    ['MAX_REQUESTS_IN_FLIGHT set', { OPENAI_API_KEY: 'sk-x', MAX_REQUESTS_IN_FLIGHT: '5' }, 5],
  ])('when configured with %s, then MAX_REQUESTS_IN_FLIGHT is %s', (_name, env, want) => {
    expect(loadConfig(env).maxRequestsInFlight).toBe(want);
  });

  test('when MAX_REQUESTS_IN_FLIGHT exceeds OPENAI_MAX_SOCKETS with an upstream, then startup refuses it naming both', () => {
    const env = { OPENAI_API_KEY: 'sk-x', OPENAI_MAX_SOCKETS: '256', MAX_REQUESTS_IN_FLIGHT: '456' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/MAX_REQUESTS_IN_FLIGHT must be at most OPENAI_MAX_SOCKETS \(256\) with an upstream \(got 456\)/);
    expect(loadConfig({ MAX_REQUESTS_IN_FLIGHT: '456' }).maxRequestsInFlight).toBe(456);
  });

  test('when nothing is set, then the failure budget is 10 failures in 600 s', () => {
    expect(loadConfig({}).failureBudget).toEqual({ calls: 10, windowSeconds: 600 });
  });

  test.each([['MAX_REQUESTS_IN_FLIGHT', '0'], ['FAILURE_BUDGET_CALLS', '-1'], ['FAILURE_BUDGET_WINDOW_SECONDS', '0']])('when %s is %s, then startup refuses it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  });
});
