/**
 * Five projects: fast unit tests, integration tests against real PostgreSQL and Redis,
 * the real-model tier (a real LLM on the CPU), contract tests against the live service
 * that `make contract` starts, and the image smoke test against the container `make image` builds.
 */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json' }];

/** @type {import('jest').Config} */
module.exports = {
  // A global option (not per project): integration tests start servers and databases.
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      // The real-model tier (`make llm`): llama.cpp's server with a packaged model (test/llm/).
      displayName: 'llm',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/llm/**/*.test.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      // The live service that `make contract` starts (scripts/contract/run.sh): docs, SDKs.
      displayName: 'contract',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/contract/**/*.test.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      // The built image under podman (make image-test): needs make image first.
      displayName: 'image',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/image/**/*.test.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
  ],
};
