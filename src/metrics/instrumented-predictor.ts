/**
 * A Predictor that times every call (the histogram of predictor calls; the request's
 * `Server-Timing` is the predictors' own, domain/ports.ts `UpstreamTime`), counts failures, counts the tokens of every upstream
 * call it hears of (success and failure, and the calls that ended without a usage report),
 * counts schema mismatches and the taxonomy rules a snap's answer needed (domain/taxonomy.ts), around any other Predictor (OpenAI-compatible, with a
 * fallback or not, or embedded). It changes nothing it passes on.
 */
import { reportedByUpstream, type PredictContext, type Predicted, type Predictor, type Provenance, type UpstreamSpend } from '../domain/ports';
import { heldToTaxonomy } from '../domain/taxonomy';
import type { Metrics } from './registry';
import type { UpstreamHealth } from './upstream-health';

type Operation = keyof Predictor;
type Counted = Pick<Metrics, 'upstreamRequestDuration' | 'upstreamErrors' | 'upstreamTokens' | 'upstreamUnreportedCalls' | 'upstreamSchemaMismatches' | 'predictionsRepaired'>;

/** `health`, when given, hears of every upstream call's end (for /readyz). */
export function instrumentPredictor(predictor: Predictor, metrics: Counted, health?: UpstreamHealth): Predictor {
  async function timed<T>(operation: Operation, context: PredictContext, call: () => Promise<Predicted<T>>): Promise<Predicted<T>> {
    const startedAt = performance.now();
    const end = (outcome: 'success' | 'error'): void => {
      const ms = performance.now() - startedAt;
      metrics.upstreamRequestDuration.observe({ operation, outcome }, ms / 1000);
    };
    try {
      const result = await call();
      end('success');
      if (result.provenance.matchedSchema === false) countMismatch(metrics, operation, result.provenance);
      return result;
    } catch (err) {
      end('error');
      metrics.upstreamErrors.inc({ operation });
      throw err;
    }
  }
  const counting = (context: PredictContext): PredictContext => ({
    ...context,
    onSpend: (spend) => {
      countSpend(metrics, spend);
      health?.heard(spend, context.signal?.aborted === true);
      context.onSpend?.(spend);
    },
  });
  return {
    predictSnap: async (subject, context) => {
      const predicted = await timed('predictSnap', context, () => predictor.predictSnap(subject, counting(context)));
      for (const rule of heldToTaxonomy(predicted.result).repairs) metrics.predictionsRepaired.inc({ rule });
      return predicted;
    },
    analyseComms: (request, context) => timed('analyseComms', context, () => predictor.analyseComms(request, counting(context))),
  };
}

function countSpend(metrics: Counted, spend: UpstreamSpend): void {
  const { operation, upstream, model, outcome } = spend;
  if (!reportedByUpstream(spend)) metrics.upstreamUnreportedCalls.inc({ operation, upstream, outcome });
  const source = spend.estimated === true ? 'estimated' : 'reported';
  for (const [kind, tokens] of [['prompt', spend.promptTokens], ['completion', spend.completionTokens]] as const) {
    if (tokens !== null) metrics.upstreamTokens.inc({ operation, model, kind, upstream, outcome, source }, tokens);
  }
}

function countMismatch(metrics: Counted, operation: Operation, { upstream }: Provenance): void {
  if (upstream !== undefined) metrics.upstreamSchemaMismatches.inc({ operation, upstream });
}
