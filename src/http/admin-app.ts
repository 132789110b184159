/**
 * The admin listener (openapi/admin.yaml). First the ops endpoints (/healthz, /readyz,
 * /metrics): no token, and served whether or not the admin API is on. Then, with an
 * ADMIN_TOKEN, the product-internal admin API: a limit on wrong tokens per address, bearer token, JSON body, spec validation
 * (its validator built by the first admin request: no start waits for it),
 * the streamed exports, handlers by operationId, the one error mapper; without one, a 404 that says it is off.
 */
import express, { type Express } from 'express';
import { createHash } from 'node:crypto';
import type { AccountRateLimitDefaults } from '../domain/accounts';
import { AppError } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';
import type { Logger } from '../support/logger';
import { SPEC_PATHS } from '../support/project-root';
import { adminTokenAuth } from './admin-auth';
import type { AdminDependencies } from './dependencies';
import { errorMapper } from './error-mapper';
import { adminHandlers } from './handlers/admin';
import { jsonBody } from './json-body';
import { bindOperations } from './openapi/operations';
import { EXPORT_OPERATIONS, exportRoutes } from './routes/export-routes';
import { OPS_OPERATIONS, opsRoutes, type OpsDependencies } from './routes/ops-routes';
import { requestLog } from './request-log';
import { securityHeaders } from './security-headers';
import { specValidatorOnFirstUse } from './openapi/spec-validator';

export function createAdminApp(
  adminToken: string | undefined,
  validateResponses: boolean,
  services: AdminDependencies,
  logger: Logger,
  ops: OpsDependencies,
  accountRateLimits: AccountRateLimitDefaults,
  adminTokenFailuresPerMinute: number,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // every response is no-store: a SHA-1 of each body would buy nothing
  app.use(securityHeaders());
  app.use(opsRoutes(ops));
  if (adminToken === undefined) {
    app.use((_req, _res, next) => next(new AppError({ kind: 'not_found', message: MESSAGES.adminApiOff })));
    app.use(errorMapper(services.isOutage));
    return app;
  }
  app.use(requestLog(logger.child({ listener: 'admin' })));
  app.use(adminTokenAuth(adminToken, adminTokenFailuresPerMinute));
  app.use(jsonBody());
  app.use(specValidatorOnFirstUse(SPEC_PATHS.admin, validateResponses));
  app.use(exportRoutes(services.personalData));
  const router = express.Router();
  bindOperations(router, SPEC_PATHS.admin, adminHandlers(services.accounts, services.usageReport, accountRateLimits, services.personalData, { adminTokenId: adminTokenId(adminToken) }), [
    ...OPS_OPERATIONS,
    ...EXPORT_OPERATIONS,
  ]);
  app.use(router);
  app.use(errorMapper(services.isOutage));
  return app;
}

/** How an erasure's audit record names the token that asked for it: the first 16 hex digits of its SHA-256, never the token. */
export function adminTokenId(adminToken: string): string {
  return `sha256:${createHash('sha256').update(adminToken).digest('hex').slice(0, 16)}`;
}
