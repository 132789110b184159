/**
 * Step 5 of the request path: express-openapi-validator, the only validator, checks
 * every request against the spec (and, outside production, every response, so no
 * response drifts from the spec unnoticed). Its errors go to the error mapper.
 */
import * as OpenApiValidator from 'express-openapi-validator';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { bodyFieldTypes, namingMissingFieldTypes } from './required-field-types';

export function specValidator(specPath: string, validateResponses: boolean): (RequestHandler | ErrorRequestHandler)[] {
  const validator = OpenApiValidator.middleware({
    apiSpec: specPath,
    validateRequests: { allErrors: true },
    validateResponses: validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    ignoreUndocumented: false,
  }) as RequestHandler[];
  return [...validator, namingMissingFieldTypes(bodyFieldTypes(specPath))];
}
