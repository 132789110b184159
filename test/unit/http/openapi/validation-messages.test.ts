import { validationMessage, type ValidatorErrorItem } from '../../../../src/http/openapi/validation-messages';

const item = (path: string, keyword: string, message: string): ValidatorErrorItem => ({ path, message, errorCode: `${keyword}.openapi.validation` });

describe('validationMessage', () => {
  test.each<[string, { given: ValidatorErrorItem[]; want: string }]>([
    ['a string of the wrong type', { given: [item('/body/name', 'type', 'must be string')], want: 'name must be a string' }],
    ['a nullable string of the wrong type', { given: [item('/body/name', 'type', 'must be string,null')], want: 'name must be a string' }],
    ['an integer of the wrong type', { given: [item('/body/snapId', 'type', 'must be integer')], want: 'snapId must be an integer number' }],
    [
      'a missing string property',
      { given: [{ ...item('/body/notes', 'required', "must have required property 'notes'"), expectedType: 'string' }], want: 'notes should not be empty, notes must be a string' },
    ],
    [
      'a missing integer property',
      { given: [{ ...item('/body/snapId', 'required', "must have required property 'snapId'"), expectedType: 'integer' }], want: 'snapId should not be empty, snapId must be an integer number' },
    ],
    ['a missing property of unknown type', { given: [item('/body/notes', 'required', "must have required property 'notes'")], want: 'notes should not be empty' }],
    [
      'two missing properties',
      {
        given: [
          { ...item('/body/name', 'required', "must have required property 'name'"), expectedType: 'string' },
          { ...item('/body/notes', 'required', "must have required property 'notes'"), expectedType: 'string' },
        ],
        want: 'name should not be empty, name must be a string, notes should not be empty, notes must be a string',
      },
    ],
    ['an empty string', { given: [item('/body/notes', 'minLength', 'must NOT have fewer than 1 characters')], want: 'notes should not be empty' }],
    ['a longer minimum', { given: [item('/body/code', 'minLength', 'must NOT have fewer than 3 characters')], want: 'code must be longer than or equal to 3 characters' }],
    ['a long string', { given: [item('/body/name', 'maxLength', 'must NOT have more than 200 characters')], want: 'name must be shorter than or equal to 200 characters' }],
    ['an unknown property', { given: [item('/body/foo', 'additionalProperties', 'must NOT have additional properties')], want: 'property foo should not exist' }],
    ['an unknown query parameter (no keyword)', { given: [{ path: '/query/page', message: "Unknown query parameter 'page'" }], want: 'property page should not exist' }],
    ['a small number', { given: [item('/body/snapId', 'minimum', 'must be >= 1')], want: 'snapId must not be less than 1' }],
    ['a large number', { given: [item('/body/snapId', 'maximum', 'must be <= 100')], want: 'snapId must not be greater than 100' }],
    ['an enum', { given: [item('/body/channel', 'enum', 'must be equal to one of the allowed values: email, chat')], want: 'channel must be one of the following values: email, chat' }],
    ['the no-NUL pattern', { given: [item('/body/name', 'pattern', 'must match pattern "^[^\\u0000]*$"')], want: 'name must not contain NUL characters' }],
    ['a pattern', { given: [item('/headers/idempotency-key', 'pattern', 'must match pattern "^[a-z]+$"')], want: 'idempotency-key must match ^[a-z]+$ regular expression' }],
    ['the whole body', { given: [item('/body', 'type', 'must be object')], want: 'request body must be an object' }],
    [
      'a type error and its format error',
      { given: [item('/body/snapId', 'type', 'must be integer'), item('/body/snapId', 'format', 'must match format "int64"')], want: 'snapId must be an integer number' },
    ],
    [
      'several problems',
      { given: [item('/body/name', 'type', 'must be string'), item('/body/notes', 'minLength', 'must NOT have fewer than 1 characters')], want: 'name must be a string, notes should not be empty' },
    ],
    ['the same problem twice', { given: [item('/body/name', 'type', 'must be string'), item('/body/name', 'type', 'must be string')], want: 'name must be a string' }],
  ])('when %s, then the text is class-validator style', (_name, { given, want }) => {
    expect(validationMessage(given)).toBe(want);
  });
});
