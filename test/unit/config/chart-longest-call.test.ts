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
