/**
 * Counts the lookups of API keys that reach the database (what the key cache did not
 * answer), around the repository that makes them: `api_key_lookups_total`, the figure
 * behind "one query per key at a time" (the bench's shed burst reads it).
 */
import type { CallerRepository } from '../domain/ports';
import type { Metrics } from './registry';

export function countKeyLookups<T extends CallerRepository>(repository: T, metrics: Pick<Metrics, 'apiKeyLookups'>): T {
  const findByKeyHash = repository.findByKeyHash.bind(repository);
  // The repository's other methods (the deactivation poll) pass through its prototype unchanged.
  return Object.assign(Object.create(repository) as T, {
    findByKeyHash: (keyHash: string) => {
      metrics.apiKeyLookups.inc();
      return findByKeyHash(keyHash);
    },
  });
}
