/**
 * The deterministic, offline predictor: the default when no OPENAI_API_KEY is set.
 * Same input, same output; no network, no randomness, no clock.
 */
import { analyseCommsEmbedded } from './comms-analysis';
import { predictSnapEmbedded } from './snap-prediction';
import type { CommsAnalysis, CommsRequest, Predicted, Predictor, Provenance, SnapPrediction, SnapSubject } from '../../domain/ports';

const PROVENANCE: Provenance = { predictor: 'embedded', model: 'embedded-lexicon', promptVersion: 'embedded-v1' };

export class EmbeddedPredictor implements Predictor {
  async predictSnap(subject: SnapSubject): Promise<Predicted<SnapPrediction>> {
    return { result: predictSnapEmbedded(subject), provenance: PROVENANCE };
  }

  async analyseComms(request: CommsRequest): Promise<Predicted<CommsAnalysis>> {
    return { result: analyseCommsEmbedded(request), provenance: PROVENANCE };
  }
}
