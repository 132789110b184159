/**
 * `make eval` (docs/evaluation.md): starts the built service, sends it the evaluation set
 * through the HTTP API and writes test-output/eval/report.md with its confusion matrices.
 * With the embedded predictor (no OPENAI_* or AZURE_OPENAI_* variable set) the held-out
 * half must meet the targets, or the command fails; with a model it reports only.
 *
 * Environment (each optional):
 *   EVAL_HALVES          dev,held-out (default both)
 *   EVAL_PEOPLE          people per half, spread over the profiles (default all: 1,682 development, 180 held-out)
 *   EVAL_DESCRIPTIONS    1 or 3 (default 3)
 *   EVAL_NAMES           names the original is sent under, 1-6 (default 6)
 *   EVAL_REPEATS         sends of the original under the first name, 1-3 (default 3)
 *   EVAL_NO_EVIDENCE, EVAL_FOREIGN   notes per half (default all)
 *   EVAL_CALL_TIMEOUT_SECONDS        the bound of one call (default 360)
 *   EVAL_OUT             the report's folder (default test-output/eval)
 *   EVAL_GATE            targets (default): fail unless the held-out half meets every target;
 *                        floors (`make test`): the embedded predictor whatever OPENAI_* says;
 *                        fail only on a met target lost or a missed one below its floor
 *                        (scripts/eval/gate.ts)
 *   EVAL_GATE_RESULTS    a file to write the gate's counts to, for make test's closing line
 *   DATABASE_URL         a PostgreSQL to use instead of a throwaway PGlite folder
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEvalSet } from './eval-set';
import { evaluate } from './evaluate';
import { checkPasses, gateSummary, verdictOf, type GateMode } from './gate';
import { FULL_PLAN, integerFromEnv, planFromEnv } from './plan';
import { startEvalService, upstreamEnv } from './service';

async function main(): Promise<number> {
  const plan = planFromEnv(process.env, FULL_PLAN);
  const outDir = process.env.EVAL_OUT ?? join(__dirname, '../../../test-output/eval');
  const callTimeoutMs = integerFromEnv(process.env, 'EVAL_CALL_TIMEOUT_SECONDS', 360, 1, 3600) * 1000;
  const mode = gateModeOf(process.env.EVAL_GATE);
  const set = loadEvalSet();
  // The floors are the embedded predictor's: a model the caller set up is not what they judge.
  const service = await startEvalService(outDir, mode === 'floors' ? withoutUpstream(process.env) : process.env);
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
    const gate = evaluation.gate;
    if (gate === undefined) {
      if (mode === 'floors') throw new Error('EVAL_GATE=floors judges the held-out half: EVAL_HALVES must include held-out');
      return 0;
    }
    for (const check of gate) process.stdout.write(`  ${verdictOf(check)}  ${check.measure}: ${check.got} (target ${check.target})\n`);
    process.stdout.write(`make eval: the held-out half: ${gateSummary(gate)} (EVAL_GATE=${mode}; docs/evaluation.md)\n`);
    const passed = gate.filter((check) => checkPasses(check, mode)).length;
    if (process.env.EVAL_GATE_RESULTS) {
      const counts = { passed, failed: gate.length - passed, skipped: 0, mode, targetsMissed: gate.filter((check) => !check.passed).map((check) => check.measure) };
      writeFileSync(process.env.EVAL_GATE_RESULTS, `${JSON.stringify(counts, null, 2)}\n`);
    }
    return passed === gate.length ? 0 : 1;
  } finally {
    await service.stop();
  }
}

function withoutUpstream(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const upstream = new Set(Object.keys(upstreamEnv(env)));
  return Object.fromEntries(Object.entries(env).filter(([name]) => !upstream.has(name)));
}

function gateModeOf(value: string | undefined): GateMode {
  if (value === undefined || value === '' || value === 'targets') return 'targets';
  if (value === 'floors') return 'floors';
  throw new Error(`EVAL_GATE must be targets or floors, not ${value}`);
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
