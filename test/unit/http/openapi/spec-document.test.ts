/** A spec is read from the build's JSON while that JSON was made from the YAML as it is now, and from the YAML otherwise. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSpec, loadSpecDocument, readSpec } from '../../../../src/http/openapi/spec-document';
import { SPEC_PATHS } from '../../../../src/support/project-root';

const dir = mkdtempSync(join(tmpdir(), 'spec-document-'));
const specPath = join(dir, 'spec.yaml');
const builtPath = join(dir, 'spec.json');

function writeSpec(title: string): void {
  writeFileSync(specPath, `openapi: 3.0.3\ninfo:\n  title: "${title}"\n  version: "1"\npaths: {}\n`);
}

describe('loadSpecDocument', () => {
  test('when the built JSON was made from this YAML, then the document is the JSON', () => {
    writeSpec('same');
    const built = buildSpec(specPath);
    writeFileSync(builtPath, JSON.stringify({ ...built, document: { ...built.document, 'x-read-from': 'json' } }));

    expect(loadSpecDocument(specPath, builtPath)).toMatchObject({ info: { title: 'same' }, 'x-read-from': 'json' });
  });

  test('when the YAML changed since the build, then the document is the YAML as it is now', () => {
    writeSpec('before');
    writeFileSync(builtPath, JSON.stringify(buildSpec(specPath)));
    writeSpec('after');

    expect(loadSpecDocument(specPath, builtPath)).toEqual({ openapi: '3.0.3', info: { title: 'after', version: '1' }, paths: {} });
  });

  test('when there is no built JSON, then the document is the YAML', () => {
    writeSpec('unbuilt');

    expect(loadSpecDocument(specPath, join(dir, 'absent.json'))).toMatchObject({ info: { title: 'unbuilt' } });
  });

  test('when the built JSON is damaged, then the document is the YAML', () => {
    writeSpec('damaged');
    writeFileSync(builtPath, '{"yamlSha256":');

    expect(loadSpecDocument(specPath, builtPath)).toMatchObject({ info: { title: 'damaged' } });
  });
});

describe('readSpec', () => {
  test('when a spec is read twice, then both reads give the same frozen document', () => {
    const first = readSpec(SPEC_PATHS.public);

    expect(readSpec(SPEC_PATHS.public)).toBe(first);
    expect(Object.isFrozen(first.paths)).toBe(true);
  });
});
