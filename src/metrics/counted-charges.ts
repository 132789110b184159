/**
 * Repositories that count the credits they charge: `storeCharged` takes one credit
 * exactly when it returns a stored row (docs/credit-holds.md), so that is what is
 * counted; a refusal (no credit left) or a failure counts nothing.
 */
import type { CommsRepository, SnapRepository } from '../domain/ports';
import type { Metrics } from './registry';

type Charged = Metrics['creditsCharged'];

export function countSnapCharges(snaps: SnapRepository, creditsCharged: Charged): SnapRepository {
  return {
    storeCharged: async (snap) => {
      const stored = await snaps.storeCharged(snap);
      if (stored.status === 'stored') creditsCharged.inc({ operation: 'createSnap' });
      return stored;
    },
    findOwned: (accountId, snapId) => snaps.findOwned(accountId, snapId),
  };
}

export function countCommsCharges(comms: CommsRepository, creditsCharged: Charged): CommsRepository {
  return {
    storeCharged: async (analysis) => {
      const stored = await comms.storeCharged(analysis);
      if (stored.status === 'stored') creditsCharged.inc({ operation: 'createCommsAnalysis' });
      return stored;
    },
    findOwned: (accountId, commsId) => comms.findOwned(accountId, commsId),
  };
}
