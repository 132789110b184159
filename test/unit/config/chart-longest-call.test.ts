/**
 * The Helm chart refuses to render a shutdown bound shorter than the longest paid call
 * (deploy/helm/.../_helpers.tpl). With `config.openaiTimeoutSeconds` empty it cannot ask
 * the service for that call, so it carries a copy of the service's derived figure; this
 * keeps the copy in step with the derivation (config/time-budget.ts): a change of the
 * default token bounds or speeds that moves it fails here, not in a cluster.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/config';

const HELPERS = join(__dirname, '../../../deploy/helm/profile-prediction-service/templates/_helpers.tpl');

test("when the chart's upstream timeout is empty, then the longest call it assumes is the one the service derives from its defaults", () => {
  const chart = /\$longestCall := \.Values\.config\.openaiTimeoutSeconds \| default (\d+) \| int/.exec(readFileSync(HELPERS, 'utf8'));
  expect(chart).not.toBeNull();

  const derived = loadConfig({ OPENAI_API_KEY: 'sk-x' }).timeBudget.longestUpstreamMs / 1000;

  expect(Number(chart?.[1])).toBe(derived);
});

/** The names the chart refuses in `extraEnv` while `config.openaiTimeoutSeconds` is empty. */
function chartCallInputs(): string[] {
  const helpers = readFileSync(HELPERS, 'utf8');
  const list = /if not \.Values\.config\.openaiTimeoutSeconds -\}\}\s*\{\{- range \$name := list ((?:"\w+" ?)+) -\}\}/.exec(helpers);
  expect(list).not.toBeNull();
  return [...(list?.[1] ?? '').matchAll(/"(\w+)"/g)].map((match) => match[1] ?? '');
}

/** A valid value of each input that moves a route's derived call away from the defaults' (with what else it needs to be valid). */
const MOVED: Record<string, Record<string, string>> = {
  OPENAI_MAX_RETRIES: { OPENAI_MAX_RETRIES: '3' },
  OPENAI_MIN_TOKENS_PER_SECOND: { OPENAI_MIN_TOKENS_PER_SECOND: '20' },
  OPENAI_FIRST_TOKEN_SECONDS: { OPENAI_FIRST_TOKEN_SECONDS: '30' },
  OPENAI_ATTEMPT_TIMEOUT_SECONDS: { OPENAI_ATTEMPT_TIMEOUT_SECONDS: '200' },
  OPENAI_MAX_OUTPUT_TOKENS: { OPENAI_MAX_OUTPUT_TOKENS: '3000' },
  OPENAI_MAX_OUTPUT_TOKENS_SNAP: { OPENAI_MAX_OUTPUT_TOKENS_SNAP: '2000' },
  OPENAI_MAX_OUTPUT_TOKENS_COMMS: { OPENAI_MAX_OUTPUT_TOKENS_COMMS: '3000' },
  OPENAI_FALLBACK_BASE_URL: { OPENAI_FALLBACK_BASE_URL: 'https://fallback.example.com/v1', OPENAI_FALLBACK_API_KEY: 'sk-fallback' },
  AZURE_OPENAI_ENDPOINT: {
    AZURE_OPENAI_ENDPOINT: 'https://acme.openai.azure.com',
    AZURE_OPENAI_API_KEY: 'az-key',
    AZURE_OPENAI_DEPLOYMENT: 'gpt-4o-prod',
    AZURE_OPENAI_API_VERSION: '2024-10-21',
  },
};

test('when extraEnv sets a variable the chart lists as moving the call, then it does move the derived call', () => {
  const calls = (env: Record<string, string>) => loadConfig({ OPENAI_API_KEY: 'sk-x', SHUTDOWN_TIMEOUT_SECONDS: '3600', ...env }).timeBudget.upstream?.wholeMs;
  const defaults = calls({});
  const inputs = chartCallInputs();

  expect(inputs.sort()).toEqual(Object.keys(MOVED).sort());
  for (const name of inputs) expect({ name, calls: calls(MOVED[name] ?? {}) }).not.toEqual({ name, calls: defaults });
});

test('when the service derives the call from a variable, then the chart lists it among those extraEnv may not set alone', () => {
  const budget = readFileSync(join(__dirname, '../../../src/config/time-budget.ts'), 'utf8');
  const read = [...budget.matchAll(/read\.\w+\('(\w+)'/g)].map((match) => match[1]);
  const setByTheChart = ['OPENAI_TIMEOUT_SECONDS', 'SHUTDOWN_TIMEOUT_SECONDS'];

  expect(read.filter((name) => !setByTheChart.includes(name ?? '')).every((name) => chartCallInputs().includes(name ?? ''))).toBe(true);
});
