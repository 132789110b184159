/**
 * Step 10 of the request path (docs/architecture.md): express-openapi-validator, the only validator, checks
 * every request against the spec (and, outside production, every response, so no
 * response drifts from the spec unnoticed). Its errors go to the error mapper.
 *
 * It validates against the strict copy of the spec (strict-spec.ts): response objects
 * closed, so a response with a field the spec does not name fails outside production,
 * although the published spec tells clients to expect more fields later. Requests are the
 * same in both. It gets the spec already parsed (the strict copy is its own), and does not
 * check the spec against the OpenAPI schema at every start (`validateApiSpec: false`):
 * `make lint` checks the spec with redocly and Spectral before it ships.
 */
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types';
import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { bodyFieldTypes, namingMissingFieldTypes } from './required-field-types';
import { readSpec } from './spec-document';
import { strictSpec } from './strict-spec';

export function specValidator(specPath: string, validateResponses: boolean): (RequestHandler | ErrorRequestHandler)[] {
  const validator = OpenApiValidator.middleware({
    apiSpec: strictSpec(readSpec(specPath)) as unknown as OpenAPIV3.DocumentV3,
    validateApiSpec: false,
    validateRequests: { allErrors: true },
    validateResponses: validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    ignoreUndocumented: false,
  }) as RequestHandler[];
  return [...validator, namingMissingFieldTypes(bodyFieldTypes(specPath))];
}

/**
 * The same validator, built by the first request that reaches it instead of at start: for
 * the admin API, which no start waits for. Building one costs about a tenth of a second
 * (express-openapi-validator compiles the OpenAPI schema itself, even with
 * `validateApiSpec: false`), which a pod replaced paid before its first paid call.
 */
export function specValidatorOnFirstUse(specPath: string, validateResponses: boolean): RequestHandler {
  let validator: Router | undefined;
  return (req, res, next) => {
    validator ??= Router().use(specValidator(specPath, validateResponses));
    validator(req, res, next);
  };
}
