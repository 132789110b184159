/**
 * What a production process runs on by default where an operator may have meant otherwise
 * (docs/operations.md, "Configuration"): a typo in a Secret's key name, or an empty value,
 * leaves a variable unset, and the service then starts on its embedded default, healthy to
 * every probe. Each is logged at start-up as a warning naming the variable that replaces it.
 */
import type { Config } from './config';

export function embeddedDefaultsInProduction(config: Pick<Config, 'nodeEnv' | 'openai' | 'databaseUrl' | 'redisUrl'>): string[] {
  if (config.nodeEnv !== 'production') return [];
  return [
    !config.openai && 'no OPENAI_API_KEY: the embedded predictor answers every paid call (and charges for it); set OPENAI_API_KEY and OPENAI_MODEL to call a model',
    !config.databaseUrl && 'no DATABASE_URL: the embedded PGlite database in DATA_DIR, for one process only; set DATABASE_URL to use PostgreSQL',
    !config.redisUrl && 'no REDIS_URL: each process counts its own rate limits and failure budget, so N instances allow N times the limits; set REDIS_URL to share them',
  ].filter((warning): warning is string => typeof warning === 'string');
}
