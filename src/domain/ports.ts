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
