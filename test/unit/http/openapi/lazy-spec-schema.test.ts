/** The OpenAPI schema that express-openapi-validator compiles at every start is compiled only when a spec is checked. */
import * as schemaValidatorModule from 'express-openapi-validator/dist/framework/openapi.schema.validator';
import { compileSpecSchemaLazily } from '../../../../src/http/openapi/lazy-spec-schema';

const Original = schemaValidatorModule.OpenAPISchemaValidator;
let compiles = 0;

/** The library's class, counting its constructions (each one compiles the whole OpenAPI schema). */
class Counting extends Original {
  constructor(options: ConstructorParameters<typeof Original>[0]) {
    super(options);
    compiles++;
  }
}

const VALID = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} };
const INVALID = { openapi: '3.0.3', info: { title: 't' }, paths: {} };

beforeAll(() => {
  Object.defineProperty(schemaValidatorModule, 'OpenAPISchemaValidator', { value: Counting });
  compileSpecSchemaLazily();
  compileSpecSchemaLazily(); // a second call changes nothing
});

beforeEach(() => {
  compiles = 0;
});

describe('compileSpecSchemaLazily', () => {
  test('when the library builds its spec checker, then nothing is compiled', () => {
    new schemaValidatorModule.OpenAPISchemaValidator({ version: '3.0.3', validateApiSpec: false });

    expect(compiles).toBe(0);
  });

  test('when a spec is checked, then the schema is compiled once and checks as before', () => {
    const checker = new schemaValidatorModule.OpenAPISchemaValidator({ version: '3.0.3', validateApiSpec: true });

    const valid = checker.validate(VALID as never);
    const invalid = checker.validate(INVALID as never);

    expect(compiles).toBe(1);
    expect(valid.errors).toEqual([]);
    expect(invalid.errors).toEqual(expect.arrayContaining([expect.objectContaining({ params: { missingProperty: 'version' } })]));
  });
});
