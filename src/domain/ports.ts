/**
 * What the domain needs from storage and from whatever makes predictions, as plain
 * interfaces. `src/data/` implements the repositories with knex; `src/upstream/`
 * implements the Predictor (an OpenAI-compatible server, with a fallback or not, or the
 * deterministic offline predictor). The domain never sees knex or the OpenAI client.
 *
 * What becomes a response body (SnapPrediction, CommsAnalysis, DraftAnalysis, DraftIssue,
 * and the results of create-snap.ts and create-comms-analysis.ts) is a type alias, not an
 * interface: the spec's response objects are open to additive change, so their generated
 * types carry an index signature, and only a type alias is assignable to one.
 */
import type { Confidence, ProfileCode, ProfileName } from './profiles';
import type { FailureKind } from './failure-kind';

// ---- The Predictor port ----
//
// A predictor returns what it could read, with `null` for anything missing or unusable,
// and throws (a PredictorError, src/domain/predictor-error.ts) when the call as a whole
// failed. It never decides HTTP statuses or contract messages: the domain does.

/** The person described in a snap request (openapi/openapi.yaml, `SnapRequest`). */
export interface SnapSubject {
  name: string;
  notes: string;
  ageRange?: string;
  jobType?: string;
}

/**
 * What a predictor is told about the person: everything but the name, which is not
 * evidence (subject-name.ts). Its texts call the person SUBJECT_REFERENCE instead.
 */
export type AnonymousSubject = Omit<SnapSubject, 'name'>;

/**
 * A prediction as the predictor read it. `secondary_profile` may be Visionary here:
 * the domain refuses it, so the rule lives in one place.
 */
export type SnapPrediction = {
  profile: ProfileName | null;
  primary_code: ProfileCode | null;
  secondary_profile: ProfileName | null;
  secondary_code: ProfileCode | null;
  confidence: Confidence | null;
  reasoning: string | null;
  summary: string | null;
  secondary_profile_summary: string | null;
};

export const COMMS_CHANNELS = ['email', 'chat', 'call', 'meeting'] as const;
export type CommsChannel = (typeof COMMS_CHANNELS)[number];

/**
 * What a comms analysis is asked about: a stored snap's profiles plus the caller's
 * context. Not the person's name: the texts call them SUBJECT_REFERENCE (subject-name.ts).
 */
export interface CommsRequest {
  profile: ProfileName | null;
  primaryCode: ProfileCode | null;
  secondaryProfile: ProfileName | null;
  channel?: CommsChannel;
  goal?: string;
  draft?: string;
}

export type DraftIssue = {
  excerpt: string;
  suggestion: string;
};

export type DraftAnalysis = {
  fit_score: number | null;
  issues: DraftIssue[];
  rewrite: string | null;
};

export type CommsAnalysis = {
  profile: ProfileName | null;
  primary_code: ProfileCode | null;
  summary: string | null;
  do: string[];
  dont: string[];
  phrases_to_use: string[];
  phrases_to_avoid: string[];
  /** `null` when the request had no draft. */
  draft_analysis: DraftAnalysis | null;
};

/** Which upstream of an OpenAI-compatible predictor answered: the primary or the fallback. */
export type UpstreamName = 'primary' | 'fallback';

/**
 * Which predictor and model produced a result, stored with it. The upstream fields are
 * absent for the embedded predictor. The token counts are the upstream's `usage`, or, when
 * its answer had none, the service's estimate (`tokensEstimated`).
 */
export interface Provenance {
  predictor: 'embedded' | 'openai';
  model: string;
  promptVersion: string;
  upstream?: UpstreamName;
  promptTokens?: number | null;
  completionTokens?: number | null;
  /** The token counts are the service's estimate: the answer came without `usage` (upstream/openai/estimated-usage.ts). */
  tokensEstimated?: boolean;
  /** false: the answer did not match the JSON schema sent (the server ignored it). */
  matchedSchema?: boolean;
}

export interface Predicted<T> {
  result: T;
  provenance: Provenance;
}

/**
 * The time a model had a request, added by each predictor that asked one: an upstream
 * model's from its first request written to its last answer read, the embedded
 * predictor's whole prediction; undefined while none was asked. The HTTP layer reports it
 * in `Server-Timing` and subtracts it to get the service's own overhead, which so includes
 * the service's work to prepare an upstream request and read its answer.
 */
export interface UpstreamTime {
  upstreamMs: number | undefined;
}

/** Adds `ms` of a model's time to a request's timing, when the request is timed. */
export function addUpstreamTime(timing: UpstreamTime | undefined, ms: number): void {
  if (timing) timing.upstreamMs = (timing.upstreamMs ?? 0) + ms;
}

/**
 * What one upstream call spent, told when it ends, whether it succeeded or failed (the
 * operator pays for both): the upstream's usage report, or the service's estimate where the
 * call ended without one (`estimated`). A count is null when there is neither: a call
 * never sent, or a report that leaves the count out.
 */
export interface UpstreamSpend {
  operation: keyof Predictor;
  upstream: UpstreamName;
  model: string;
  outcome: 'success' | 'failure';
  promptTokens: number | null;
  completionTokens: number | null;
  /**
   * The counts are the service's estimate, not the upstream's report: a call that ended
   * without a usage report, or with one of its two counts (that one kept), failed or
   * answered (upstream/openai/estimated-usage.ts).
   */
  estimated?: boolean;
}

/**
 * Whether the upstream itself reported the call's tokens (its `usage`): false for an
 * estimate and for a call that ended with no count at all. /readyz, the metrics and the
 * failed-call usage each read "reported" this one way.
 */
export function reportedByUpstream(spend: UpstreamSpend): boolean {
  return spend.estimated !== true && (spend.promptTokens !== null || spend.completionTokens !== null);
}

export interface PredictContext {
  requestId: string;
  signal?: AbortSignal;
  timing?: UpstreamTime;
  /** Told of every upstream call this prediction made (the fallback's too); the embedded predictor makes none. */
  onSpend?: (spend: UpstreamSpend) => void;
}

export interface Predictor {
  predictSnap(subject: AnonymousSubject, context: PredictContext): Promise<Predicted<SnapPrediction>>;
  analyseComms(request: CommsRequest, context: PredictContext): Promise<Predicted<CommsAnalysis>>;
}

// ---- Storage ports ----

export interface Caller {
  accountId: number;
  keyId: number;
  /** The account's own per-account rate limit (requests per window); null or absent: the service's default. */
  rateLimit?: number | null;
}

export interface StoredSnap {
  snapId: number;
  accountId: number;
  /** The name only, unless the operator keeps the request texts (KEEP_REQUEST_TEXTS). */
  subject: Pick<SnapSubject, 'name'> & Partial<SnapSubject>;
  prediction: SnapPrediction;
}

/** One credit set aside for one call in flight (docs/credit-holds.md). */
export interface CreditHold {
  holdId: number;
  accountId: number;
}

export interface ChargedSnap {
  /** The hold this snap's charge is taken from. */
  hold: CreditHold;
  subject: SnapSubject;
  prediction: SnapPrediction;
  provenance: Provenance;
  /** A claimed Idempotency-Key, completed with the stored row in the same statement. */
  claim?: ClaimedKey;
}

export interface ChargedComms {
  /** The hold this analysis's charge is taken from. */
  hold: CreditHold;
  snapId: number;
  request: Omit<CommsRequest, 'profile' | 'primaryCode' | 'secondaryProfile'>;
  analysis: CommsAnalysis;
  provenance: Provenance;
  /** A claimed Idempotency-Key, completed with the stored row in the same statement. */
  claim?: ClaimedKey;
}

/**
 * What the charging statement did: stored the row (and took the charge), or stored
 * nothing because no credit was left or because the Idempotency-Key claim is no longer
 * this call's (it outlived its lease and another call took the key over).
 */
export type ChargeOutcome = { status: 'stored'; id: number } | { status: 'no_credit' } | { status: 'claim_lost' };

export interface CallerRepository {
  /** The caller of an active key with this SHA-256 hash, or null. */
  findByKeyHash(keyHash: string): Promise<Caller | null>;
}

/**
 * Per account, the failed predictor calls of a sliding window (docs/security.md, "Threat model").
 * Neither method throws: where the shared count cannot be reached, this process's own
 * count answers.
 */
export interface FailureBudget {
  /** Undefined while the account may call its predictor; otherwise whole seconds until it may again. */
  refusal(accountId: number, operation: string): Promise<{ retryAfterSeconds: number } | undefined>;
  /** Counts one failed predictor call of the account. */
  countFailure(accountId: number, operation: string): Promise<void>;
}

export interface CreditsRepository {
  /**
   * Atomically moves one of the account's available credits into a hold for a call of
   * `operation`; null, holding nothing, when no credit is available.
   */
  hold(accountId: number, operation: string): Promise<CreditHold | null>;
  /** Gives a hold's credit back. A hold already charged or returned gives nothing. */
  release(hold: CreditHold): Promise<void>;
}

export interface SnapRepository {
  /**
   * Atomically: turn the hold into the charge, store the snap, write the ledger row,
   * complete the idempotency claim. A hold already returned (its lease ran out) is
   * replaced by an available credit. Stores nothing when there is none, or when the claim
   * is no longer this call's. When the commit's answer is lost, the outcome is looked up
   * rather than guessed.
   */
  storeCharged(snap: ChargedSnap): Promise<ChargeOutcome>;
  findOwned(accountId: number, snapId: number): Promise<StoredSnap | null>;
}

export interface StoredComms {
  commsId: number;
  snapId: number;
  analysis: CommsAnalysis;
}

export interface CommsRepository {
  /** Like SnapRepository.storeCharged, for a communication analysis. */
  storeCharged(comms: ChargedComms): Promise<ChargeOutcome>;
  findOwned(accountId: number, commsId: number): Promise<StoredComms | null>;
}

/** A key this call claimed, and the token that proves the claim is still its own. */
export interface ClaimedKey {
  key: string;
  owner: string;
}

export type IdempotencyClaim =
  | { status: 'claimed' }
  /** `retryAfterSeconds`: within how long the key is free if the call holding it has died. */
  | { status: 'pending'; fingerprint: string; retryAfterSeconds: number }
  | { status: 'completed'; fingerprint: string; resultId: number };

export interface IdempotencyRepository {
  /**
   * Claims the key for a call (`claimed.owner` is that call's token) with this
   * fingerprint: `claimed` when the key was free, expired, or left pending by a call that
   * outlived its lease; otherwise what holds it.
   */
  claim(accountId: number, claimed: ClaimedKey, fingerprint: string): Promise<IdempotencyClaim>;
  /**
   * Frees a key after a failure, so a retry runs again; only while the claim is still this
   * call's. When the database does not answer, the release is tried again until it does.
   */
  release(accountId: number, claimed: ClaimedKey): Promise<void>;
  /** The call holding `claimed` is over (completed or released): its claim is no longer kept alive. */
  ended(accountId: number, claimed: ClaimedKey): void;
}

export interface AccountSummary {
  accountId: number;
  name: string;
  /** Available credits. */
  credits: number;
  /** Credits held by calls in flight. */
  held: number;
  /** LLM tokens used by the account's stored results: reported by the upstreams, or estimated where an answer had no `usage` (of them, `estimated…`). */
  tokens: { prompt: number; completion: number; estimatedPrompt: number; estimatedCompletion: number; failed: FailedCallUsage };
  keys: { keyId: number; prefix: string; active: boolean }[];
}

/**
 * Upstream calls of an account that stored no result (failed, refused, or whose client
 * left), so charged nothing: their tokens (reported, or estimated for a call without a
 * usage report), how many ended without a usage report, and how many of the prompt
 * tokens are estimates.
 */
export interface FailedCallUsage {
  prompt: number;
  completion: number;
  calls: number;
  /** Of `calls`, those without the upstream's usage report: estimated, or nothing sent (more than `ModelTokens.unreportedCalls` counts). */
  unreportedCalls: number;
  /** Of `prompt`, the estimated part (upstream/openai/estimated-usage.ts). */
  estimatedPrompt: number;
  /** Of `completion`, the estimated part: the chunks of a streamed answer that arrived. */
  estimatedCompletion: number;
}

/**
 * What of one paid call stored no result: the upstream calls whose result was not stored,
 * and, when the call itself failed, its kind (null: the call succeeded, these are its
 * fallback's failed primary calls).
 */
export interface FailedSpend {
  operation: 'createSnap' | 'createCommsAnalysis';
  kind: FailureKind | null;
  spends: readonly UpstreamSpend[];
}

export interface UsageRepository {
  /** Adds them to the account's failed-call usage and to its usage tallies of this hour. */
  addFailed(accountId: number, failed: FailedSpend): Promise<void>;
}

/** One model's tokens in a bucket (openapi/admin.yaml, `ModelTokens`). */
export interface ModelTokens {
  model: string;
  calls: number;
  reported: { prompt: number; completion: number };
  estimated: { prompt: number; completion: number };
  /** Of `calls`, those with neither the upstream's usage report nor an estimate. */
  unreportedCalls: number;
}

/** One bucket of an account's usage (openapi/admin.yaml, `UsageBucket`). */
export interface UsageBucket {
  /** The bucket's start, ISO 8601 in UTC. */
  start: string;
  calls: { createSnap: number; createCommsAnalysis: number };
  creditsCharged: number;
  creditsGranted: number;
  successes: number;
  failures: { total: number } & Record<FailureKind, number>;
  tokens: ModelTokens[];
}

/** An account's usage over time, read from the credit ledger and the usage tallies. */
export interface UsageReportRepository {
  /** The non-empty buckets in [from, to), oldest first, at most `limit`; null when there is no such account. */
  usageOf(accountId: number, range: { from: Date; to: Date; granularity: 'hour' | 'day'; limit: number }): Promise<UsageBucket[] | null>;
}

export interface AccountRepository {
  create(input: { name: string; credits: number; keyHash: string; keyPrefix: string }): Promise<{ accountId: number; keyId: number }>;
  find(accountId: number): Promise<AccountSummary | null>;
  addCredits(accountId: number, amount: number): Promise<number | null>;
  addKey(accountId: number, keyHash: string, keyPrefix: string): Promise<number | null>;
  deactivateKey(keyId: number): Promise<boolean>;
  /** The account's own per-account rate limit (null: the default), or undefined when there is no such account. */
  rateLimitOf(accountId: number): Promise<number | null | undefined>;
  /** Sets it (null: back to the default); false when there is no such account. */
  setRateLimit(accountId: number, limit: number | null): Promise<boolean>;
  count(): Promise<number>;
}

// ---- Personal data: erasure and export (docs/privacy.md) ----

/** What an erasure deleted. */
export interface ErasedCounts {
  snaps: number;
  commsAnalyses: number;
  replays: number;
}

/** Who asked for an erasure: the fingerprint of the admin token, never the token. */
export interface ErasureActor {
  adminTokenId: string;
}

export interface ErasureRecord {
  erasureId: number;
  scope: 'snap' | 'account' | 'person';
  accountId: number | null;
  snapId: number | null;
  erasedAt: string;
  erased: ErasedCounts;
}

export interface PersonalDataRepository {
  /** Deletes one snap with its analyses and replays; its audit record (counts zero when it was already gone). */
  eraseSnap(snapId: number, actor: ErasureActor): Promise<ErasureRecord>;
  /** Deletes every snap, analysis and replay of the account; null when there is no such account. */
  eraseAccount(accountId: number, actor: ErasureActor): Promise<ErasureRecord | null>;
  /** Deletes the snaps about the person of this name (matched by digest) with their analyses and replays; null when there is no such account. */
  erasePerson(accountId: number, name: string, actor: ErasureActor): Promise<ErasureRecord | null>;
  /**
   * Everything stored for the account (or, with a name, about that person in it) as one
   * JSON document, in pieces; null when there is no such account.
   */
  exportAccount(accountId: number, name?: string): Promise<AsyncIterable<string> | null>;
}
