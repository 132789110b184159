/**
 * One evaluation: send the plan to a running service, measure each half, judge the gate
 * when asked, and write the report, the confusion matrices and every call's result to a
 * folder. Shared by `make eval` (run-eval.ts) and the real-model tier (test/llm/).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { confusionSvg } from './confusion-svg';
import { HALVES, type EvalSet } from './eval-set';
import { gateChecks, type GateCheck } from './gate';
import { measureHalf, type HalfMeasures } from './measures';
import { planCalls, type PlanOptions } from './plan';
import { reportMarkdown } from './report';
import { runCalls, type CallResult, type EvalTarget } from './run-calls';

export interface Evaluation {
  results: CallResult[];
  halves: Partial<Record<(typeof HALVES)[number], HalfMeasures>>;
  /** Present when the gate was asked for. */
  gate?: GateCheck[];
  reportFile: string;
}

export async function evaluate(options: {
  target: EvalTarget;
  set: EvalSet;
  plan: PlanOptions;
  /** What the service runs, for the report's first line. */
  predictor: string;
  outDir: string;
  gate: boolean;
  callTimeoutMs: number;
  log?: (line: string) => void;
}): Promise<Evaluation> {
  const startedAt = new Date();
  const calls = planCalls(options.set, options.plan);
  const log = options.log ?? (() => undefined);
  log(`make eval: ${calls.length} calls against ${options.predictor}`);
  const step = Math.max(1, Math.round(calls.length / 20));
  const results = await runCalls(options.target, calls, {
    callTimeoutMs: options.callTimeoutMs,
    onResult: (result, index) => {
      if ((index + 1) % step === 0 || index + 1 === calls.length || result.status !== 201) {
        log(`  ${index + 1}/${calls.length} ${result.call.half} ${result.call.itemId} ${result.call.purpose}: ${result.status} ${result.prediction?.profile ?? result.error ?? ''} (${result.seconds.toFixed(2)} s)`);
      }
    },
  });
  const halves: Evaluation['halves'] = {};
  for (const half of options.plan.halves) halves[half] = measureHalf(options.set, half, results);
  const heldOut = halves['held-out'];
  const gate = options.gate && heldOut ? gateChecks(heldOut) : undefined;

  mkdirSync(options.outDir, { recursive: true });
  for (const half of Object.values(halves)) writeFileSync(join(options.outDir, `confusion-${half.half}.svg`), confusionSvg(`Primary profile, ${half.half} half: ${options.predictor}`, half.confusion));
  writeFileSync(join(options.outDir, 'results.jsonl'), results.map((result) => JSON.stringify(result)).join('\n') + '\n');
  writeFileSync(join(options.outDir, 'measures.json'), `${JSON.stringify({ predictor: options.predictor, plan: options.plan, halves, gate }, null, 2)}\n`);
  const plan = `${options.plan.halves.join(' and ')} half; ${options.plan.people ?? 'all'} people per half, ${options.plan.descriptions} description(s), ${options.plan.names} name(s), ${options.plan.repeats} send(s) of the original; ${options.plan.noEvidence ?? 'all'} no-evidence and ${options.plan.foreign ?? 'all'} foreign notes per half`;
  const reportFile = join(options.outDir, 'report.md');
  writeFileSync(
    reportFile,
    reportMarkdown({ predictor: options.predictor, plan, startedAt, minutes: (Date.now() - startedAt.getTime()) / 60_000, dev: halves.dev, heldOut, gate, results, set: options.set }),
  );
  return { results, halves, gate, reportFile };
}
