/**
 * What the domain needs from storage and from whatever makes predictions, as plain
 * interfaces. `src/data/` implements the repositories with knex; `src/upstream/`
 * implements the Predictor (an OpenAI-compatible server, with a fallback or not, or the
 * deterministic offline predictor). The domain never sees knex or the OpenAI client.
 */
import type { Confidence, ProfileCode, ProfileName } from './profiles';

// ---- The Predictor port ----
//
// A predictor returns what it could read, with `null` for anything missing or unusable,
// and throws (a PredictorError, src/upstream/predictor-error.ts) when the call as a whole
// failed. It never decides HTTP statuses or contract messages: the domain does.

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

// ---- Storage ports ----

export interface Caller {
  accountId: number;
  keyId: number;
}

export interface StoredSnap {
  snapId: number;
  accountId: number;
  subject: SnapSubject;
  prediction: SnapPrediction;
}

export interface ChargedSnap {
  accountId: number;
  subject: SnapSubject;
  prediction: SnapPrediction;
  provenance: Provenance;
  /** A claimed Idempotency-Key, completed with the stored row in the same statement. */
  idempotencyKey?: string;
}

export interface ChargedComms {
  accountId: number;
  snapId: number;
  request: Omit<CommsRequest, 'subjectName' | 'profile' | 'primaryCode' | 'secondaryProfile'>;
  analysis: CommsAnalysis;
  provenance: Provenance;
  /** A claimed Idempotency-Key, completed with the stored row in the same statement. */
  idempotencyKey?: string;
}

export interface CallerRepository {
  /** The caller of an active key with this SHA-256 hash, or null. */
  findByKeyHash(keyHash: string): Promise<Caller | null>;
}

export interface CreditsRepository {
  balanceOf(accountId: number): Promise<number>;
}

export interface SnapRepository {
  /**
   * Atomically: take one credit, store the snap, write the ledger row, complete the
   * idempotency key. Returns null, storing nothing, when the account has no credit left.
   */
  storeCharged(snap: ChargedSnap): Promise<{ snapId: number } | null>;
  findOwned(accountId: number, snapId: number): Promise<StoredSnap | null>;
}

export interface StoredComms {
  commsId: number;
  snapId: number;
  analysis: CommsAnalysis;
}

export interface CommsRepository {
  /** Like SnapRepository.storeCharged, for a communication analysis. */
  storeCharged(comms: ChargedComms): Promise<{ commsId: number } | null>;
  findOwned(accountId: number, commsId: number): Promise<StoredComms | null>;
}

export type IdempotencyClaim =
  | { status: 'claimed' }
  | { status: 'pending'; fingerprint: string }
  | { status: 'completed'; fingerprint: string; resultId: number };

export interface IdempotencyRepository {
  /**
   * Claims `key` for a request with this fingerprint: `claimed` when the key was free,
   * expired, or left pending by a call that died; otherwise what holds it.
   */
  claim(accountId: number, key: string, fingerprint: string): Promise<IdempotencyClaim>;
  /** Frees a claimed key after a failure, so a retry runs again. */
  release(accountId: number, key: string): Promise<void>;
}

export interface AccountSummary {
  accountId: number;
  name: string;
  credits: number;
  /** LLM tokens used by the account's stored results, as the upstreams reported them. */
  tokens: { prompt: number; completion: number };
  keys: { keyId: number; prefix: string; active: boolean }[];
}

export interface AccountRepository {
  create(input: { name: string; credits: number; keyHash: string; keyPrefix: string }): Promise<{ accountId: number; keyId: number }>;
  find(accountId: number): Promise<AccountSummary | null>;
  addCredits(accountId: number, amount: number): Promise<number | null>;
  addKey(accountId: number, keyHash: string, keyPrefix: string): Promise<number | null>;
  deactivateKey(keyId: number): Promise<boolean>;
  count(): Promise<number>;
}
