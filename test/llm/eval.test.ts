/**
 * `make eval` on the packaged model (docs/evaluation.md): a small stated subset of the
 * evaluation set through the service's HTTP API, on real PostgreSQL and Redis, against
 * llama.cpp's server with SmolLM2-135M. It reports and judges nothing: a 135M model cannot
 * meet the targets, and the figures go to test-output/eval-llm/report.md. The subset (the
 * held-out half's first two people, each under two names, and one no-evidence note: five
 * calls) keeps the tier to minutes; EVAL_PEOPLE, EVAL_NAMES, … widen it (scripts/eval/run-eval.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEvalSet } from '../../scripts/eval/eval-set';
import { evaluate } from '../../scripts/eval/evaluate';
import { planCalls, planFromEnv, type PlanOptions } from '../../scripts/eval/plan';
import { localCpuSettings, startLlamaServer, type LlamaServer } from '../support/llama-server';
import { TEST_ADMIN_TOKEN, startTestServer, type TestServer } from '../support/test-server';

const OUTPUT = join(__dirname, '../../test-output/eval-llm');
const SUBSET: PlanOptions = { halves: ['held-out'], people: 2, descriptions: 1, names: 2, repeats: 1, noEvidence: 1, foreign: 0 };
/** One call on this machine: a prefill of ~650 tokens and up to 400 answer tokens at 3–30 tok/s; generous. */
const CALL_MS = 300_000;

const plan = planFromEnv(process.env, SUBSET);
const set = loadEvalSet();
jest.setTimeout((planCalls(set, plan).length + 2) * CALL_MS);

let llama: LlamaServer;
let server: TestServer;

beforeAll(async () => {
  llama = await startLlamaServer();
  server = await startTestServer({ ...localCpuSettings(llama, 400, CALL_MS), LOG_LEVEL: 'silent', FAILURE_BUDGET_CALLS: '0' });
}, 2 * CALL_MS);

afterAll(async () => {
  await server?.close();
  await llama?.stop();
});

describe('make eval on the packaged model', () => {
  test('when the subset is sent through the API, then every call ends 201 or 500 and the report with its confusion matrix is written', async () => {
    const evaluation = await evaluate({
      target: { url: server.url, adminUrl: server.adminUrl, adminToken: TEST_ADMIN_TOKEN },
      set,
      plan,
      predictor: `the packaged model (${llama.model} on llama.cpp, CPU)`,
      outDir: OUTPUT,
      gate: false,
      callTimeoutMs: CALL_MS,
      log: (line) => process.stdout.write(`${line}\n`),
    });
    expect(evaluation.results).toHaveLength(planCalls(set, plan).length);
    for (const result of evaluation.results) expect([result.call.itemId, [201, 500].includes(result.status)]).toEqual([result.call.itemId, true]);
    expect(evaluation.gate).toBeUndefined();
    expect(readFileSync(evaluation.reportFile, 'utf8')).toContain(`Predictor: **the packaged model (${llama.model}`);
    expect(existsSync(join(OUTPUT, 'confusion-held-out.svg'))).toBe(true);
  });
});
