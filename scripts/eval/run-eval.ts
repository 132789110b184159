/**
 * `make eval` (docs/evaluation.md): starts the built service, sends it the evaluation set
 * through the HTTP API and writes test-output/eval/report.md with its confusion matrices.
 * With the embedded predictor (no OPENAI_* or AZURE_OPENAI_* variable set) the held-out
 * half must meet the targets, or the command fails; with a model it reports only.
 *
 * Environment (each optional):
 *   EVAL_HALVES          dev,held-out (default both)
 *   EVAL_PEOPLE          people per half, spread over the profiles (default all: 483 development, 180 held-out)
 *   EVAL_DESCRIPTIONS    1 or 3 (default 3)
 *   EVAL_NAMES           names the original is sent under, 1-6 (default 6)
 *   EVAL_REPEATS         sends of the original under the first name, 1-3 (default 3)
 *   EVAL_NO_EVIDENCE, EVAL_FOREIGN   notes per half (default all)
 *   EVAL_CALL_TIMEOUT_SECONDS        the bound of one call (default 360)
 *   EVAL_OUT             the report's folder (default test-output/eval)
 *   DATABASE_URL         a PostgreSQL to use instead of a throwaway PGlite folder
 */
import { join } from 'node:path';
import { loadEvalSet } from './eval-set';
import { evaluate } from './evaluate';
import { FULL_PLAN, integerFromEnv, planFromEnv } from './plan';
import { startEvalService } from './service';

async function main(): Promise<number> {
  const plan = planFromEnv(process.env, FULL_PLAN);
  const outDir = process.env.EVAL_OUT ?? join(__dirname, '../../../test-output/eval');
  const callTimeoutMs = integerFromEnv(process.env, 'EVAL_CALL_TIMEOUT_SECONDS', 360, 1, 3600) * 1000;
  const set = loadEvalSet();
  const service = await startEvalService(outDir);
  try {
    const evaluation = await evaluate({
      target: service,
      set,
      plan,
      predictor: service.predictor,
      outDir,
      gate: service.embedded,
      callTimeoutMs,
      log: (line) => process.stdout.write(`${line}\n`),
    });
    process.stdout.write(`report: ${evaluation.reportFile}\n`);
    for (const check of evaluation.gate ?? []) process.stdout.write(`  ${check.passed ? 'pass' : 'FAIL'}  ${check.measure}: ${check.got} (target ${check.target})\n`);
    if (!evaluation.passed) process.stdout.write('make eval: the embedded predictor misses the targets of the held-out half (docs/evaluation.md)\n');
    return evaluation.passed ? 0 : 1;
  } finally {
    await service.stop();
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`make eval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(2);
    },
  );
}
