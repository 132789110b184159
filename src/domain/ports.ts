/**
 * What the domain needs from storage, as plain interfaces. `src/data/` implements
 * them with knex; the domain never sees knex.
 */
import type { CommsAnalysis, CommsRequest, Provenance, SnapPrediction, SnapSubject } from '../upstream/predictor';

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

/** One credit set aside for one call in flight (DESIGN.md, "Credits"). */
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
  request: Omit<CommsRequest, 'subjectName' | 'profile' | 'primaryCode' | 'secondaryProfile'>;
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
  | { status: 'pending'; fingerprint: string }
  | { status: 'completed'; fingerprint: string; resultId: number };

export interface IdempotencyRepository {
  /**
   * Claims the key for a call (`claimed.owner` is that call's token) with this
   * fingerprint: `claimed` when the key was free, expired, or left pending by a call that
   * outlived its lease; otherwise what holds it.
   */
  claim(accountId: number, claimed: ClaimedKey, fingerprint: string): Promise<IdempotencyClaim>;
  /** Frees a key after a failure, so a retry runs again; only while the claim is still this call's. */
  release(accountId: number, claimed: ClaimedKey): Promise<void>;
}

export interface AccountSummary {
  accountId: number;
  name: string;
  /** Available credits. */
  credits: number;
  /** Credits held by calls in flight. */
  held: number;
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
