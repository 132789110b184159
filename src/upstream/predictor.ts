/**
 * The seam between the domain and whatever makes predictions: an OpenAI-compatible
 * server (`openai/`) or the deterministic offline predictor (`embedded/`).
 *
 * A predictor returns what it could read, with `null` for anything missing or
 * unusable, and throws `PredictorError` when the call as a whole failed. It never
 * decides HTTP statuses or contract messages: the domain does.
 */
import type { Confidence, ProfileCode, ProfileName } from '../domain/profiles';

/** The person described in a snap request (contract §2.1). */
export interface SnapSubject {
  name: string;
  notes: string;
  ageRange?: string;
  jobType?: string;
}

/**
 * A prediction as the predictor read it. `secondary_profile` may be Visionary here:
 * the domain refuses it, so the rule lives in one place.
 */
export interface SnapPrediction {
  profile: ProfileName | null;
  primary_code: ProfileCode | null;
  secondary_profile: ProfileName | null;
  secondary_code: ProfileCode | null;
  confidence: Confidence | null;
  reasoning: string | null;
  summary: string | null;
  secondary_profile_summary: string | null;
}

export const COMMS_CHANNELS = ['email', 'chat', 'call', 'meeting'] as const;
export type CommsChannel = (typeof COMMS_CHANNELS)[number];

/** What a comms analysis is asked about: a stored snap's profiles plus the caller's context. */
export interface CommsRequest {
  subjectName: string;
  profile: ProfileName | null;
  primaryCode: ProfileCode | null;
  secondaryProfile: ProfileName | null;
  channel?: CommsChannel;
  goal?: string;
  draft?: string;
}

export interface DraftIssue {
  excerpt: string;
  suggestion: string;
}

export interface DraftAnalysis {
  fit_score: number | null;
  issues: DraftIssue[];
  rewrite: string | null;
}

export interface CommsAnalysis {
  profile: ProfileName | null;
  primary_code: ProfileCode | null;
  summary: string | null;
  do: string[];
  dont: string[];
  phrases_to_use: string[];
  phrases_to_avoid: string[];
  /** `null` when the request had no draft. */
  draft_analysis: DraftAnalysis | null;
}

/** Which upstream of an OpenAI-compatible predictor answered: the primary or the fallback. */
export type UpstreamName = 'primary' | 'fallback';

/**
 * Which predictor and model produced a result, stored with it. The upstream fields are
 * absent for the embedded predictor; a token count is null when the upstream's answer
 * had no `usage`.
 */
export interface Provenance {
  predictor: 'embedded' | 'openai';
  model: string;
  promptVersion: string;
  upstream?: UpstreamName;
  promptTokens?: number | null;
  completionTokens?: number | null;
  /** false: the answer did not match the JSON schema sent (the server ignored it). */
  matchedSchema?: boolean;
}

export interface Predicted<T> {
  result: T;
  provenance: Provenance;
}

export interface PredictContext {
  requestId: string;
  signal?: AbortSignal;
}

export interface Predictor {
  predictSnap(subject: SnapSubject, context: PredictContext): Promise<Predicted<SnapPrediction>>;
  analyseComms(request: CommsRequest, context: PredictContext): Promise<Predicted<CommsAnalysis>>;
}

/** The call as a whole failed (HTTP error, timeout, refusal, unparsable output). */
export class PredictorError extends Error {
  readonly upstreamStatus: number | undefined;

  constructor(message: string, options: { cause?: unknown; upstreamStatus?: number } = {}) {
    super(message, { cause: options.cause });
    this.name = 'PredictorError';
    this.upstreamStatus = options.upstreamStatus;
  }
}
