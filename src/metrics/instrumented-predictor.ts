/**
 * A Predictor that times every call and counts failures, around any other Predictor
 * (OpenAI-compatible or embedded). It changes nothing it passes on.
 */
import type { Predictor } from '../upstream/predictor';
import type { Metrics } from './registry';

type Operation = keyof Predictor;

export function instrumentPredictor(predictor: Predictor, metrics: Pick<Metrics, 'upstreamRequestDuration' | 'upstreamErrors'>): Predictor {
  async function timed<T>(operation: Operation, call: () => Promise<T>): Promise<T> {
    const end = metrics.upstreamRequestDuration.startTimer({ operation });
    try {
      const result = await call();
      end({ outcome: 'success' });
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
