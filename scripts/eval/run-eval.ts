/**
 * `make eval` (docs/evaluation.md): starts the built service, sends it the evaluation set
 * through the HTTP API and writes test-output/eval/report.md with its confusion matrices.
 * With the embedded predictor (no OPENAI_* or AZURE_OPENAI_* variable set) the held-out
 * half must meet the targets, or the command fails; with a model it reports only.
 *
 * Environment (each optional):
 *   EVAL_HALVES          dev,held-out (default both)
 *   EVAL_PEOPLE          people per half, spread over the profiles (default all: 60)
 *   EVAL_DESCRIPTIONS    1 or 3 (default 3)
 *   EVAL_NAMES           names the original is sent under, 1-6 (default 6)
 *   EVAL_REPEATS         sends of the original under the first name, 1-3 (default 3)
 *   EVAL_NO_EVIDENCE, EVAL_FOREIGN   notes per half (default all)
 *   EVAL_CALL_TIMEOUT_SECONDS        the bound of one call (default 360)
 *   EVAL_OUT             the report's folder (default test-output/eval)
 *   DATABASE_URL         a PostgreSQL to use instead of a throwaway PGlite folder
 */
import { join } from 'node:path';
import { HALVES, loadEvalSet, type Half } from './eval-set';
import { evaluate } from './evaluate';
import { FULL_PLAN, type PlanOptions } from './plan';
import { startEvalService } from './service';

function integer(name: string, fallback: number | undefined, min: number, max: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}, not ${raw}`);
  return value;
}

export function planFromEnv(): PlanOptions {
  const halves = (process.env.EVAL_HALVES ?? HALVES.join(',')).split(',').map((half) => half.trim());
  for (const half of halves) if (!(HALVES as readonly string[]).includes(half)) throw new Error(`EVAL_HALVES: unknown half ${half} (dev, held-out)`);
  const descriptions = integer('EVAL_DESCRIPTIONS', FULL_PLAN.descriptions, 1, 3);
  if (descriptions !== 1 && descriptions !== 3) throw new Error('EVAL_DESCRIPTIONS must be 1 or 3');
  return {
    halves: halves as Half[],
    people: integer('EVAL_PEOPLE', undefined, 1, 1000),
    descriptions,
    names: integer('EVAL_NAMES', FULL_PLAN.names, 1, 6) as number,
    repeats: integer('EVAL_REPEATS', FULL_PLAN.repeats, 1, 3) as number,
    noEvidence: integer('EVAL_NO_EVIDENCE', undefined, 0, 1000),
    foreign: integer('EVAL_FOREIGN', undefined, 0, 1000),
  };
}

async function main(): Promise<number> {
  const plan = planFromEnv();
  const outDir = process.env.EVAL_OUT ?? join(__dirname, '../../../test-output/eval');
  const callTimeoutMs = (integer('EVAL_CALL_TIMEOUT_SECONDS', 360, 1, 3600) as number) * 1000;
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
