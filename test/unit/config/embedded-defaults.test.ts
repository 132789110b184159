import { embeddedDefaultsInProduction } from '../../../src/config/embedded-defaults';

const configured = { openai: {} as never, databaseUrl: 'postgres://db/pps', redisUrl: 'redis://redis:6379/0' };

describe('embeddedDefaultsInProduction', () => {
  test('when a production process has an upstream, PostgreSQL and Redis, then nothing is warned', () => {
    expect(embeddedDefaultsInProduction({ nodeEnv: 'production', ...configured })).toEqual([]);
  });

  test('when a production process falls back to each embedded default, then each is warned, naming the variable that replaces it', () => {
    const warnings = embeddedDefaultsInProduction({ nodeEnv: 'production', openai: undefined, databaseUrl: undefined, redisUrl: undefined });
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^no OPENAI_API_KEY: .*set OPENAI_API_KEY/);
    expect(warnings[1]).toMatch(/^no DATABASE_URL: .*set DATABASE_URL/);
    expect(warnings[2]).toMatch(/^no REDIS_URL: .*set REDIS_URL/);
  });

  test('when the process is not in production (make run), then its embedded defaults are not warned', () => {
    expect(embeddedDefaultsInProduction({ nodeEnv: 'development', openai: undefined, databaseUrl: undefined, redisUrl: undefined })).toEqual([]);
  });
});
