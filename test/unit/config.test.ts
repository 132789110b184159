import { ConfigError, loadConfig } from '../../src/config';

describe('loadConfig', () => {
  test('when nothing is set, then the embedded defaults apply', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 3000,
      adminHost: '127.0.0.1',
      adminPort: 3001,
      adminToken: undefined,
      databaseUrl: undefined,
      dataDir: './.data',
      redisUrl: undefined,
      rateLimitMax: 120,
      rateLimitWindowSeconds: 60,
      trustProxy: false,
      openai: undefined,
      validateResponses: true,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('when OPENAI_API_KEY is set, then the OpenAI settings come with their defaults', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x' }).openai).toEqual({
      apiKey: 'sk-x',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4.1-mini',
      timeoutSeconds: 30,
      maxRetries: 1,
    });
  });

  test.each([
    ['the embedded predictor', {}, 15],
    ['the default upstream timeout', { OPENAI_API_KEY: 'sk-x' }, 45],
    ['a 90 s upstream timeout', { OPENAI_API_KEY: 'sk-x', OPENAI_TIMEOUT_SECONDS: '90' }, 105],
  ])('when SHUTDOWN_TIMEOUT_SECONDS is unset with %s, then it lets the longest paid call finish (%p s)', (_name, env, want) => {
    expect(loadConfig(env).shutdownTimeoutSeconds).toBe(want);
  });

  test('when SHUTDOWN_TIMEOUT_SECONDS is shorter than the longest paid call, then startup is refused naming both variables', () => {
    expect(() => loadConfig({ OPENAI_API_KEY: 'sk-x', SHUTDOWN_TIMEOUT_SECONDS: '10' })).toThrow(
      new ConfigError(
        'SHUTDOWN_TIMEOUT_SECONDS',
        'must be at least 45 (got 10): OPENAI_TIMEOUT_SECONDS (30) plus 15 s to store the result, so that a shutdown lets paid calls in flight finish',
      ),
    );
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x', SHUTDOWN_TIMEOUT_SECONDS: '60' }).shutdownTimeoutSeconds).toBe(60);
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

  test('when a URL with a password is invalid, then the message does not repeat it', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(/^(?!.*hunter2).*DATABASE_URL/);
  });
});

describe('WEB_CONCURRENCY', () => {
  const SHARED = { DATABASE_URL: 'postgres://db/pps', REDIS_URL: 'redis://cache:6379' };

  test.each([
    ['unset', {}, 1],
    ['1 without PostgreSQL or Redis', { WEB_CONCURRENCY: '1' }, 1],
    ['4 with PostgreSQL and Redis', { WEB_CONCURRENCY: '4', ...SHARED }, 4],
  ])('when it is %s, then there are that many workers', (_name, env, want) => {
    expect(loadConfig(env).webConcurrency).toBe(want);
  });

  test.each([
    ['0', { WEB_CONCURRENCY: '0', ...SHARED }, /WEB_CONCURRENCY must be a number from 1 to 64/],
    ['65', { WEB_CONCURRENCY: '65', ...SHARED }, /WEB_CONCURRENCY must be a number from 1 to 64/],
    ['2.5', { WEB_CONCURRENCY: '2.5', ...SHARED }, /WEB_CONCURRENCY must be a whole number/],
    ['2 without DATABASE_URL', { WEB_CONCURRENCY: '2', REDIS_URL: SHARED.REDIS_URL }, /WEB_CONCURRENCY above 1 needs DATABASE_URL: the embedded PGlite/],
    ['2 without REDIS_URL', { WEB_CONCURRENCY: '2', DATABASE_URL: SHARED.DATABASE_URL }, /WEB_CONCURRENCY above 1 needs REDIS_URL: .* RATE_LIMIT_MAX per worker/],
  ])('when it is %s, then startup stops with a message saying why', (_name, env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
