/**
 * Migrations listed in code rather than found on disk, so the same list runs from
 * TypeScript sources (tests) and from the compiled build.
 */
import type { Knex } from 'knex';
import * as initial from './001-initial';
import * as commsAnalyses from './002-comms-analyses';
import * as idempotencyKeys from './003-idempotency-keys';
import * as creditHolds from './004-credit-holds';
import * as creditsBigint from './005-credits-bigint';
import * as upstreamUsage from './006-upstream-usage';
import * as chargeOwners from './007-charge-owners';
import * as failedCallUsage from './008-failed-call-usage';
import * as deactivatedKeysIndex from './009-deactivated-keys-index';
import * as accountRateLimit from './010-account-rate-limit';
import * as personalData from './011-personal-data';
import * as estimatedUsage from './012-estimated-usage';
import * as usageTallies from './013-usage-tallies';
import * as estimatedCompletion from './014-estimated-completion';
import * as estimatedAnswerTokens from './015-estimated-answer-tokens';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '001-initial': initial,
  '002-comms-analyses': commsAnalyses,
  '003-idempotency-keys': idempotencyKeys,
  '004-credit-holds': creditHolds,
  '005-credits-bigint': creditsBigint,
  '006-upstream-usage': upstreamUsage,
  '007-charge-owners': chargeOwners,
  '008-failed-call-usage': failedCallUsage,
  '009-deactivated-keys-index': deactivatedKeysIndex,
  '010-account-rate-limit': accountRateLimit,
  '011-personal-data': personalData,
  '012-estimated-usage': estimatedUsage,
  '013-usage-tallies': usageTallies,
  '014-estimated-completion': estimatedCompletion,
  '015-estimated-answer-tokens': estimatedAnswerTokens,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = MIGRATIONS[name];
    if (!migration) throw new Error(`unknown migration ${name}`);
    return migration;
  },
};
