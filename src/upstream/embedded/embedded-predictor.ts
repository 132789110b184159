/**
 * The deterministic, offline predictor: the default when no OPENAI_API_KEY is set.
 * Same input, same output; no network, no randomness (the clock only times it: it is the
 * model, so its whole time is the request's `upstream` time). Its texts are held to the
 * spec's limits like the model's (a long goal or draft is quoted in them).
 */
import { boundCommsAnalysis, boundSnapPrediction } from '../../domain/bounded-output';
import { analyseCommsEmbedded } from './comms-analysis';
import { predictSnapEmbedded } from './snap-prediction';
import { addUpstreamTime, type AnonymousSubject, type CommsAnalysis, type CommsRequest, type PredictContext, type Predicted, type Predictor, type Provenance, type SnapPrediction } from '../../domain/ports';

/** Its results' provenance; also that of an answer the lexicon gives on a model's route (earned-confidence.ts, `unaskedAnswer`). */
export const EMBEDDED_PROVENANCE: Provenance = { predictor: 'embedded', model: 'embedded-lexicon', promptVersion: 'embedded-v3' };

export class EmbeddedPredictor implements Predictor {
  async predictSnap(subject: AnonymousSubject, context?: PredictContext): Promise<Predicted<SnapPrediction>> {
    return timed(context, () => ({ result: boundSnapPrediction(predictSnapEmbedded(subject)), provenance: EMBEDDED_PROVENANCE }));
  }

  async analyseComms(request: CommsRequest, context?: PredictContext): Promise<Predicted<CommsAnalysis>> {
    return timed(context, () => ({ result: boundCommsAnalysis(analyseCommsEmbedded(request)), provenance: EMBEDDED_PROVENANCE }));
  }
}

function timed<T>(context: PredictContext | undefined, predict: () => T): T {
  const startedAt = performance.now();
  try {
    return predict();
  } finally {
    addUpstreamTime(context?.timing, performance.now() - startedAt);
  }
}
