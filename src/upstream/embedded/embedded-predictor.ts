/**
 * The deterministic, offline predictor: the default when no OPENAI_API_KEY is set.
 * Same input, same output; no network, no randomness, no clock. Its texts are held to
 * the spec's limits like the model's (a long goal or draft is quoted in them).
 */
import { boundCommsAnalysis, boundSnapPrediction } from '../../domain/bounded-output';
import { analyseCommsEmbedded } from './comms-analysis';
import { predictSnapEmbedded } from './snap-prediction';
import type { AnonymousSubject, CommsAnalysis, CommsRequest, Predicted, Predictor, Provenance, SnapPrediction } from '../../domain/ports';

/** Its results' provenance; also that of an answer the lexicon gives on a model's route (earned-confidence.ts, `unaskedAnswer`). */
export const EMBEDDED_PROVENANCE: Provenance = { predictor: 'embedded', model: 'embedded-lexicon', promptVersion: 'embedded-v3' };

export class EmbeddedPredictor implements Predictor {
  async predictSnap(subject: AnonymousSubject): Promise<Predicted<SnapPrediction>> {
    return { result: boundSnapPrediction(predictSnapEmbedded(subject)), provenance: EMBEDDED_PROVENANCE };
  }

  async analyseComms(request: CommsRequest): Promise<Predicted<CommsAnalysis>> {
    return { result: boundCommsAnalysis(analyseCommsEmbedded(request)), provenance: EMBEDDED_PROVENANCE };
  }
}
