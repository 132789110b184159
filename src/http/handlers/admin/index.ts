/** The admin operations, one handler per operationId of openapi/admin.yaml (the exports are streamed: src/http/routes/export-routes.ts). */
import {
  addCredits,
  createAccount,
  createApiKey,
  deactivateApiKey,
  getAccount,
  getAccountRateLimit,
  setAccountRateLimit,
  type AccountRateLimitDefaults,
} from '../../../domain/accounts';
import { eraseAccountData, erasePerson, eraseSnap } from '../../../domain/personal-data';
import type { AccountRepository, ErasureActor, PersonalDataRepository, UsageReportRepository } from '../../../domain/ports';
import { getAccountUsage } from '../../../domain/usage-report';
import type { operations } from '../../../../generated/admin';
import type { OperationHandlers } from '../../openapi/operations';
import type { ExportOperationId } from '../../routes/export-routes';
import type { OpsOperationId } from '../../routes/ops-routes';

/** @param actor who the erasures are recorded as done by: the admin token's fingerprint */
export function adminHandlers(
  accounts: AccountRepository,
  usageReport: UsageReportRepository,
  rateLimits: AccountRateLimitDefaults,
  personalData: PersonalDataRepository,
  actor: ErasureActor,
) {
  return {
    createAccount: async ({ body }) => ({
      status: 201,
      message: 'Account created',
      data: await createAccount(accounts, body.name, body.credits),
    }),
    getAccount: async ({ params }) => ({
      status: 200,
      message: 'Account found',
      data: await getAccount(accounts, Number(params.accountId)),
    }),
    addCredits: async ({ params, body }) => ({
      status: 200,
      message: 'Credits added',
      data: await addCredits(accounts, Number(params.accountId), body.amount),
    }),
    getAccountRateLimit: async ({ params }) => ({
      status: 200,
      message: 'Rate limit found',
      data: await getAccountRateLimit(accounts, rateLimits, Number(params.accountId)),
    }),
    setAccountRateLimit: async ({ params, body }) => ({
      status: 200,
      message: 'Rate limit set',
      data: await setAccountRateLimit(accounts, rateLimits, Number(params.accountId), body.limit),
    }),
    getAccountUsage: async ({ params, query }) => ({
      status: 200,
      message: 'Usage found',
      data: await getAccountUsage(usageReport, Number(params.accountId), {
        from: String(query.from),
        to: String(query.to),
        granularity: query.granularity === 'hour' ? 'hour' : 'day',
        limit: query.limit === undefined ? 100 : Number(query.limit),
      }),
    }),
    createApiKey: async ({ params }) => ({
      status: 201,
      message: 'API key created',
      data: await createApiKey(accounts, Number(params.accountId)),
    }),
    deactivateApiKey: async ({ params }) => ({
      status: 200,
      message: 'API key deactivated',
      data: await deactivateApiKey(accounts, Number(params.keyId)),
    }),
    eraseSnap: async ({ params }) => ({
      status: 200,
      message: 'Snap erased',
      data: await eraseSnap(personalData, Number(params.snapId), actor),
    }),
    eraseAccountData: async ({ params }) => ({
      status: 200,
      message: 'Account data erased',
      data: await eraseAccountData(personalData, Number(params.accountId), actor),
    }),
    erasePerson: async ({ params, body }) => ({
      status: 200,
      message: 'Person erased',
      data: await erasePerson(personalData, Number(params.accountId), body.name, actor),
    }),
  } satisfies OperationHandlers<Omit<operations, OpsOperationId | ExportOperationId>>;
}
