/**
 * express-openapi-validator builds an `OpenAPISchemaValidator` each time it starts on a
 * spec, and its constructor compiles the whole OpenAPI 3.1 JSON schema with ajv: measured
 * 2026-11-23 (node /tmp script, 5 fresh processes, a loaded 2-core machine) 350-390 ms of
 * CPU for the first spec and 200-370 ms for the second, so about 0.6 s of every start
 * (public and admin specs). That compiled schema
 * is used only to check the spec itself (`validateApiSpec`), which the service turns off
 * because `make lint` checks the spec before it ships. This makes the compile happen on
 * the first `validate()` instead, that is never here.
 *
 * It replaces the library's export in place, once per process. If the library stops
 * exporting the class where this expects it (an upgrade), start-up fails here and says
 * so; if it stops reading the export when it starts (an ESM build, a bundle),
 * test/unit/http/openapi/lazy-spec-schema.test.ts fails: it watches Ajv compile through
 * the library's public `middleware()`.
 */
import * as schemaValidatorModule from 'express-openapi-validator/dist/framework/openapi.schema.validator';

type Eager = typeof schemaValidatorModule.OpenAPISchemaValidator;
type Options = ConstructorParameters<Eager>[0];
type Document = Parameters<InstanceType<Eager>['validate']>[0];

const LAZY = Symbol('compiles the OpenAPI schema on first use');

export function compileSpecSchemaLazily(): void {
  const eager = schemaValidatorModule.OpenAPISchemaValidator as Eager & { [LAZY]?: true };
  if (typeof eager !== 'function') {
    throw new Error('express-openapi-validator no longer exports OpenAPISchemaValidator from dist/framework/openapi.schema.validator: update src/http/openapi/lazy-spec-schema.ts');
  }
  if (eager[LAZY]) return;

  class LazyOpenApiSchemaValidator {
    static readonly [LAZY] = true;
    private compiled: InstanceType<Eager> | undefined;

    constructor(private readonly options: Options) {}

    validate(document: Document): ReturnType<InstanceType<Eager>['validate']> {
      this.compiled ??= new eager(this.options);
      return this.compiled.validate(document);
    }
  }
  Object.defineProperty(schemaValidatorModule, 'OpenAPISchemaValidator', { value: LazyOpenApiSchemaValidator, enumerable: true });
}
