/**
 * Counts the lookups of API keys that reach the database (what the key cache did not
 * answer), around the repository that makes them: `api_key_lookups_total`, the figure
 * behind "one query per key at a time" (the bench's shed burst reads it).
 */
import type { CallerRepository } from '../domain/ports';
import type { Metrics } from './registry';

/** The lookups the key cache makes, and the deactivation poll it also needs, which is passed through. */
interface KeySource extends CallerRepository {
  deactivatedWithin(withinSeconds: number): Promise<string[]>;
}

export function countKeyLookups(repository: KeySource, metrics: Pick<Metrics, 'apiKeyLookups'>): KeySource {
  return {
    findByKeyHash: (keyHash) => {
      metrics.apiKeyLookups.inc();
      return repository.findByKeyHash(keyHash);
    },
    deactivatedWithin: (withinSeconds) => repository.deactivatedWithin(withinSeconds),
  };
}
