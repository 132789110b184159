import { SPEC_PATHS } from '../../../../src/support/project-root';
import { bodyFieldTypes } from '../../../../src/http/openapi/required-field-types';

describe('bodyFieldTypes', () => {
  test('when read from the public spec, then each body property has its declared type, through $refs and nullable types', () => {
    const types = bodyFieldTypes(SPEC_PATHS.public);
    expect(Object.fromEntries(types.get('createSnap') ?? [])).toEqual({ name: 'string', notes: 'string', ageRange: 'string', jobType: 'string' });
    expect(Object.fromEntries(types.get('createCommsAnalysis') ?? [])).toEqual({ snapId: 'integer', channel: 'string', goal: 'string', draft: 'string' });
  });

  test('when read from the admin spec, then its bodies are typed too', () => {
    const types = bodyFieldTypes(SPEC_PATHS.admin);
    expect(types.get('createAccount')?.get('credits')).toBe('integer');
    expect(types.get('createAccount')?.get('name')).toBe('string');
  });
});
