/**
 * The bare 401 body is exactly `message`, `error` and `statusCode` (openapi/openapi.yaml,
 * components.schemas.UnauthorizedBody, the one closed response object): a 401 that also
 * carried the envelope's `success` or `timestamp` fails the spec's schema.
 */
import Ajv2020 from 'ajv/dist/2020';
import { readSpec } from '../../../../src/http/openapi/spec-document';
import { SPEC_PATHS } from '../../../../src/support/project-root';

const spec = readSpec(SPEC_PATHS.public) as unknown as { components: { schemas: Record<string, object> } };
const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addKeyword('x-closed');
const validate = ajv.compile(spec.components.schemas.UnauthorizedBody as object);
const BARE = { message: 'Invalid or inactive api key', error: 'Invalid or inactive api key', statusCode: 401 };

describe('the 401 body schema', () => {
  test('when the body is the bare three fields, then it passes', () => {
    expect(validate(BARE)).toBe(true);
  });

  test.each([
    ['success', { ...BARE, success: false }],
    ['timestamp', { ...BARE, timestamp: '2026-01-01T00:00:00.000Z' }],
    ['any other field', { ...BARE, data: null }],
  ])('when the body also carries %s, then it fails', (_name, body) => {
    expect(validate(body)).toBe(false);
  });
});
