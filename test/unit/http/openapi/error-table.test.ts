/**
 * Every error message the service sends is in an error table of a spec's description
 * (openapi/openapi.yaml or openapi/admin.yaml), the table the docs page renders and
 * integrators build on, not only in a response example. A message with variable parts is
 * checked by its fixed texts between them.
 */
import { MESSAGES } from '../../../../src/domain/messages';
import { readSpec } from '../../../../src/http/openapi/spec-document';
import { SPEC_PATHS } from '../../../../src/support/project-root';

/** Success messages, not errors; and the 500 of a defect, which the spec gives as a response only. */
const NOT_IN_A_TABLE = new Set<keyof typeof MESSAGES>(['snapCreated', 'commsCreated', 'internalError']);

const descriptions = [SPEC_PATHS.public, SPEC_PATHS.admin].map((path) => (readSpec(path) as unknown as { info: { description: string } }).info.description).join('\n');

/** A message's fixed texts: itself, or the parts between its variable ones. */
function fixedTexts(message: string | ((...args: never[]) => string)): string[] {
  if (typeof message === 'string') return [message];
  const marker = '\u0000';
  return message(...(Array.from({ length: message.length }, () => marker) as never[]))
    .split(marker)
    .filter((text) => text.trim() !== '');
}

const errors = Object.entries(MESSAGES).filter(([name]) => !NOT_IN_A_TABLE.has(name as keyof typeof MESSAGES));

describe("the spec's error tables", () => {
  test.each(errors)('when the service answers %s, then its message is in a table', (_name, message) => {
    const texts = fixedTexts(message);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(descriptions).toContain(text);
  });
});
