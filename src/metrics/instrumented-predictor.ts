/**
 * A Predictor that times every call, counts failures, and counts the tokens and schema
 * mismatches its answers' provenance reports, around any other Predictor
 * (OpenAI-compatible, with a fallback or not, or embedded). It changes nothing it
 * passes on.
 */
import type { Predicted, Predictor, Provenance } from '../domain/ports';
import type { Metrics } from './registry';

type Operation = keyof Predictor;
type Counted = Pick<Metrics, 'upstreamRequestDuration' | 'upstreamErrors' | 'upstreamTokens' | 'upstreamSchemaMismatches'>;

export function instrumentPredictor(predictor: Predictor, metrics: Counted): Predictor {
  async function timed<T>(operation: Operation, call: () => Promise<Predicted<T>>): Promise<Predicted<T>> {
    const end = metrics.upstreamRequestDuration.startTimer({ operation });
    try {
      const result = await call();
      end({ outcome: 'success' });
      countAnswer(metrics, operation, result.provenance);
      return result;
    } catch (err) {
      end({ outcome: 'error' });
      metrics.upstreamErrors.inc({ operation });
      throw err;
    }
  }
  return {
    predictSnap: (subject, context) => timed('predictSnap', () => predictor.predictSnap(subject, context)),
    analyseComms: (request, context) => timed('analyseComms', () => predictor.analyseComms(request, context)),
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
