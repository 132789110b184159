/**
 * The public API app. Every /api/v1 request goes through the request path of docs/architecture.md, in
 * order: Server-Timing, request id and access log, rate limit, admission (requests in
 * flight), API key, JSON body, spec validation, the handler bound by operationId; any
 * error goes to the one error mapper.
 */
import express, { type Express } from 'express';
import { SHED_RETRY_AFTER_SECONDS } from '../config/admission';
import type { Config } from '../config/config';
import type { Logger } from '../support/logger';
import { SPEC_PATHS } from '../support/project-root';
import { apiKeyAuth } from './api-key-auth';
import type { ApiDependencies } from './dependencies';
import { docsRoutes } from './routes/docs-routes';
import { errorMapper } from './error-mapper';
import { publicHandlers } from './handlers';
import { jsonBody } from './json-body';
import { bindOperations } from './openapi/operations';
import { admissionControl } from './admission';
import { rateLimitByIp } from './rate-limit';
import { requestLog } from './request-log';
import { requestMetrics } from './request-metrics';
import { securityHeaders } from './security-headers';
import { serverTiming } from './server-timing';
import { specValidator } from './openapi/spec-validator';

export function createApiApp(config: Config, services: ApiDependencies, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // every response is no-store: a SHA-1 of each body would buy nothing
  app.set('trust proxy', config.trustProxy);
  app.use(serverTiming());
  app.use(requestLog(logger));
  app.use(securityHeaders());
  app.use(docsRoutes()); // public: no key, no rate limit, not validated against the spec
  app.use('/api/v1', requestMetrics(SPEC_PATHS.public, services.metrics));
  app.use(
    '/api/v1',
    rateLimitByIp({
      limit: config.rateLimitMax,
      windowSeconds: config.rateLimitWindowSeconds,
      store: services.rateLimit.store,
      onLimited: () => services.metrics.rateLimitedRequests.inc(),
    }),
    admissionControl({
      maxInFlight: config.maxRequestsInFlight,
      retryAfterSeconds: SHED_RETRY_AFTER_SECONDS,
      onCount: (delta) => services.metrics.requestsInFlight.inc(delta),
      onShed: () => services.metrics.requestsShed.inc(),
      draining: services.draining,
    }),
    apiKeyAuth(services.callers),
  );
  app.use(jsonBody());
  app.use(specValidator(SPEC_PATHS.public, config.validateResponses));
  const router = express.Router();
  bindOperations(router, SPEC_PATHS.public, publicHandlers(services));
  app.use(router);
  app.use(errorMapper(services.isOutage));
  return app;
}
