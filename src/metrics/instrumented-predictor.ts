/**
 * A Predictor that times every call (and adds its time to the request's
 * `context.timing`, for Server-Timing), counts failures, and counts the tokens and schema
 * mismatches its answers' provenance reports, around any other Predictor
 * (OpenAI-compatible, with a fallback or not, or embedded). It changes nothing it
 * passes on.
 */
import type { PredictContext, Predicted, Predictor, Provenance } from '../domain/ports';
import type { Metrics } from './registry';

type Operation = keyof Predictor;
type Counted = Pick<Metrics, 'upstreamRequestDuration' | 'upstreamErrors' | 'upstreamTokens' | 'upstreamSchemaMismatches'>;

export function instrumentPredictor(predictor: Predictor, metrics: Counted): Predictor {
  async function timed<T>(operation: Operation, context: PredictContext, call: () => Promise<Predicted<T>>): Promise<Predicted<T>> {
    const startedAt = performance.now();
    const end = (outcome: 'success' | 'error'): void => {
      const ms = performance.now() - startedAt;
      metrics.upstreamRequestDuration.observe({ operation, outcome }, ms / 1000);
      if (context.timing) context.timing.upstreamMs = (context.timing.upstreamMs ?? 0) + ms;
    };
    try {
      const result = await call();
      end('success');
      countAnswer(metrics, operation, result.provenance);
      return result;
    } catch (err) {
      end('error');
      metrics.upstreamErrors.inc({ operation });
      throw err;
    }
  }
  return {
    predictSnap: (subject, context) => timed('predictSnap', context, () => predictor.predictSnap(subject, context)),
    analyseComms: (request, context) => timed('analyseComms', context, () => predictor.analyseComms(request, context)),
  };
}

function countAnswer(metrics: Counted, operation: Operation, provenance: Provenance): void {
  const { upstream, model } = provenance;
  if (upstream === undefined) return;
  for (const [kind, tokens] of [['prompt', provenance.promptTokens], ['completion', provenance.completionTokens]] as const) {
    if (typeof tokens === 'number') metrics.upstreamTokens.inc({ operation, model, kind, upstream }, tokens);
  }
  if (provenance.matchedSchema === false) metrics.upstreamSchemaMismatches.inc({ operation, upstream });
}
