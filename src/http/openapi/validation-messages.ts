/**
 * Turns express-openapi-validator's (Ajv's) errors into class-validator style texts:
 * `name must be a string`, `notes should not be empty`,
 * `name must be shorter than or equal to 200 characters`, `property foo should not exist`
 * (an unknown query parameter too: the operations take none).
 * Several are joined with ", " (openapi/openapi.yaml, the 400 examples), at most
 * MAX_TEXTS and then "and N more": a body of 32 KiB holds thousands of unknown
 * properties, and their texts, sent twice in the envelope, made a response of about 240 KB.
 * A missing required field fails both of class-validator's constraints:
 * `name should not be empty, name must be a string`.
 * A name the client made up (an unknown property or query parameter) is quoted up to
 * QUOTED_NAME_MAX_CHARS: a key may run to the body's 32 KiB, and the spec's `Message`
 * holds at most 2,000 characters.
 */

export interface ValidatorErrorItem {
  path: string;
  message: string;
  errorCode?: string;
  /** On a `required` error: the missing field's declared type (src/http/openapi/required-field-types.ts). */
  expectedType?: string | undefined;
}

/** The most problems a message names. */
export const MAX_TEXTS = 10;

/** The most of a client's property or parameter name a text quotes (then "…"). */
export const QUOTED_NAME_MAX_CHARS = 100;

/** express-openapi-validator's own text for a query parameter the operation does not define (it has no keyword). */
const UNKNOWN_QUERY_PARAMETER = /^Unknown query parameter '(.*)'$/s;

/** The spec's pattern for text that PostgreSQL can store (any character but U+0000), as Ajv quotes it. */
const NO_NUL_PATTERN = '^[^\\u0000]*$';

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer number',
  number: 'a number',
  boolean: 'a boolean value',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

export function validationMessage(errors: readonly ValidatorErrorItem[]): string {
  // A value of the wrong type also fails its format (`1.5` is no int64): say it once.
  const mistyped = new Set(errors.filter((e) => keywordOf(e) === 'type').map((e) => e.path));
  const texts = errors.filter((e) => !(keywordOf(e) === 'format' && mistyped.has(e.path))).map(describe);
  const distinct = [...new Set(texts)];
  const more = distinct.length - MAX_TEXTS;
  return (more > 0 ? [...distinct.slice(0, MAX_TEXTS), `and ${more} more`] : distinct).join(', ');
}

function keywordOf(error: ValidatorErrorItem): string {
  return error.errorCode?.replace(/\.openapi\.validation$/, '') ?? '';
}

function describe(error: ValidatorErrorItem): string {
  const unknownQueryParameter = UNKNOWN_QUERY_PARAMETER.exec(error.message)?.[1];
  if (unknownQueryParameter !== undefined) return `property ${quoted(unknownQueryParameter)} should not exist`;
  const field = quoted(fieldName(error.path));
  return inClassValidatorWords(keywordOf(error), field, error) ?? `${field} ${error.message.replace(/^'[^']*' /, '')}`;
}

/**
 * The numbers, names and patterns are read from Ajv's English message (the validator
 * passes on no structured `params`); when a message does not say what is expected (a
 * reworded Ajv), undefined, and Ajv's own message is used rather than a wrong text.
 * test/unit/http/openapi/validation-messages.test.ts runs every case through the
 * validator, so a rewording fails there first.
 */
function inClassValidatorWords(keyword: string, field: string, error: ValidatorErrorItem): string | undefined {
  const limit = /(\d+)/.exec(error.message)?.[1];
  switch (keyword) {
    case 'required': {
      const type = error.expectedType && TYPE_WORDS[error.expectedType];
      return type ? `${field} should not be empty, ${field} must be ${type}` : `${field} should not be empty`;
    }
    case 'type': {
      const type = TYPE_WORDS[/must be (\w+)/.exec(error.message)?.[1] ?? ''];
      return type && `${field} must be ${type}`;
    }
    case 'additionalProperties':
      return `property ${field} should not exist`;
    case 'minLength':
      if (limit === undefined) return undefined;
      return limit === '1' ? `${field} should not be empty` : `${field} must be longer than or equal to ${limit} characters`;
    case 'maxLength':
      return limit && `${field} must be shorter than or equal to ${limit} characters`;
    case 'minimum':
      return limit && `${field} must not be less than ${limit}`;
    case 'maximum':
      return limit && `${field} must not be greater than ${limit}`;
    case 'enum': {
      const allowed = error.message.split(': ').slice(1).join(': ');
      return allowed ? `${field} must be one of the following values: ${allowed}` : undefined;
    }
    case 'pattern': {
      if (error.message.includes(NO_NUL_PATTERN)) return `${field} must not contain NUL characters`;
      const pattern = /^must match pattern "(.*)"$/.exec(error.message)?.[1];
      return pattern && `${field} must match ${pattern} regular expression`;
    }
    case 'format': {
      const format = /^must match format "?([^"]*)"?$/.exec(error.message)?.[1];
      return format && `${field} must be a valid ${format}`;
    }
    default:
      return undefined;
  }
}

/** `/body/name` → `name`; `/body/a/0/b` → `a.0.b`; `/body` → `request body`. */
function fieldName(path: string): string {
  const [, location = '', ...rest] = path.split('/');
  if (rest.length === 0) return location === 'body' ? 'request body' : location || 'request';
  return rest.join('.');
}

/** Cut by characters (code points), never inside a surrogate pair: a lone surrogate is refused by strict JSON parsers. */
function quoted(name: string): string {
  const characters = [...name];
  return characters.length > QUOTED_NAME_MAX_CHARS ? `${characters.slice(0, QUOTED_NAME_MAX_CHARS).join('')}…` : name;
}
