/**
 * The public API app: the request path of docs/architecture.md ("The request path", whose
 * numbered steps the middleware's comments cite), composed in its order; any error goes to
 * the one error mapper.
 */
import express, { type Express, type Request, type RequestHandler } from 'express';
import { SHED_RETRY_AFTER_SECONDS } from '../config/admission';
import type { Config } from '../config/config';
import { AppError } from '../domain/app-error';
import { MESSAGES } from '../domain/messages';
import type { Logger } from '../support/logger';
import { SPEC_PATHS } from '../support/project-root';
import { apiKeyAuth } from './api-key-auth';
import type { ApiDependencies } from './dependencies';
import { docsRoutes } from './routes/docs-routes';
import { errorMapper } from './error-mapper';
import { publicHandlers } from './handlers';
import { jsonBody } from './json-body';
import { bindOperations } from './openapi/operations';
import { accountAdmission, admissionControl } from './admission';
import { rateLimitByAccount, rateLimitByIp } from './rate-limit';
import { requestLog } from './request-log';
import { requestMetrics } from './request-metrics';
import { securityHeaders } from './security-headers';
import { serverTiming } from './server-timing';
import { specValidator } from './openapi/spec-validator';
import { warmUpSpecValidator } from './openapi/validator-warm-up';

export async function createApiApp(config: Config, services: ApiDependencies, logger: Logger): Promise<Express> {
  const app = express();
  // Paths match exactly as openapi/openapi.yaml writes them: /API/V1/SNAP and /api/v1/snap/
  // are not /api/v1/snap (404 before the key is looked up). Set before the first app.use.
  app.enable('case sensitive routing');
  app.enable('strict routing');
  app.disable('x-powered-by');
  app.disable('etag'); // every response is no-store: a SHA-1 of each body would buy nothing
  app.set('trust proxy', config.trustProxy);
  app.use(serverTiming());
  app.use(requestLog(logger));
  app.use(securityHeaders());
  app.use(docsRoutes()); // public: no key, no rate limit, not validated against the spec
  // The spec validator would take /api/v1/snap/ for /api/v1/snap; the spec's paths have no
  // trailing slash. Under /api/v1 the 404 comes after the per-IP limit, which counts every
  // request there and gives each its headers (the contract: on every response).
  const noTrailingSlash: RequestHandler = (req, _res, next) => {
    const path = req.originalUrl.split('?')[0] ?? '';
    if (path.length > 1 && path.endsWith('/')) next(routeNotFound(req, path));
    else next();
  };
  app.use((req, res, next) => (req.path.startsWith('/api/v1/') ? next() : noTrailingSlash(req, res, next)));
  app.use('/api/v1', requestMetrics(SPEC_PATHS.public, services.metrics));
  app.use(
    '/api/v1',
    rateLimitByIp({
      limit: config.rateLimitMax,
      windowSeconds: config.rateLimitWindowSeconds,
      store: services.rateLimit.store,
      onLimited: () => services.metrics.rateLimitedRequests.inc({ policy: 'ip' }),
    }),
    noTrailingSlash,
    admissionControl({
      maxInFlight: config.maxRequestsInFlight,
      retryAfterSeconds: SHED_RETRY_AFTER_SECONDS,
      onCount: (delta) => services.metrics.requestsInFlight.inc(delta),
      onShed: () => services.metrics.requestsShed.inc(),
      draining: services.draining,
    }),
    apiKeyAuth(services.callers),
    rateLimitByAccount({
      limit: config.accountRateLimitMax,
      windowSeconds: config.rateLimitWindowSeconds,
      store: services.accountRateLimit.store,
      onLimited: () => services.metrics.rateLimitedRequests.inc({ policy: 'account' }),
    }),
    accountAdmission({
      maxInFlightPerAccount: config.accountMaxRequestsInFlight,
      retryAfterSeconds: SHED_RETRY_AFTER_SECONDS,
      onRefused: () => services.metrics.rateLimitedRequests.inc({ policy: 'in-flight' }),
    }),
  );
  // Outside the API's paths the 404 comes before the body is read: nothing unauthenticated
  // and unlimited is decompressed or parsed.
  app.use((req, _res, next) => (req.path === '/api/v1' || req.path.startsWith('/api/v1/') ? next() : next(routeNotFound(req))));
  app.use(jsonBody());
  const validator = specValidator(SPEC_PATHS.public, config.validateResponses);
  await warmUpSpecValidator(validator, SPEC_PATHS.public);
  app.use(validator);
  const router = express.Router({ caseSensitive: true, strict: true });
  bindOperations(router, SPEC_PATHS.public, publicHandlers(services), [], services.work);
  app.use(router);
  app.use(errorMapper(services.isOutage));
  return app;
}

/** The 404 of a path the API does not serve, named as the spec validator's 404 names it (error-mapper.ts). */
function routeNotFound(req: Request, path: string = req.path): AppError {
  return new AppError({ kind: 'not_found', message: MESSAGES.routeNotFound(req.method, path) });
}
