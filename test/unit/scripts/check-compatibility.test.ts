/**
 * The breaking-change gate of `make lint` (scripts/lint/check-compatibility.mjs): the spec as
 * it is now plays the release, and each case changes a copy of it. oasdiff runs for real
 * (`go run`, cached by Go after the first run: `make lint` runs before the unit tests).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const SPEC = readFileSync(join(ROOT, 'openapi/openapi.yaml'), 'utf8');
const VERSION = /^ {2}version: (\S+)$/m.exec(SPEC)?.[1] ?? '';
const [major, minor] = VERSION.split('.');
const NEXT = `${major}.${Number(minor) + 1}.0`;
const CHANGELOG = `# Changelog\n\n## [Unreleased]\n\n### Added\n- A change.\n\n## [${VERSION}] - 2026-11-23\n`;
const EMPTY_CHANGELOG = `# Changelog\n\n## [Unreleased]\n\n## [${VERSION}] - 2026-11-23\n`;

/** The spec with `from` replaced by `to` once (the text must be there), and the version raised. */
function changed(from: string, to: string): string {
  expect(SPEC).toContain(from);
  return SPEC.replace(from, to).replace(`\n  version: ${VERSION}\n`, `\n  version: ${NEXT}\n`);
}

const dir = mkdtempSync(join(tmpdir(), 'pps-compat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function gate(spec: string, changelog = CHANGELOG): { status: number | null; output: string } {
  const baseline = join(dir, 'release.yaml');
  const revision = join(dir, 'openapi.yaml');
  const changelogPath = join(dir, 'CHANGELOG.md');
  writeFileSync(baseline, SPEC);
  writeFileSync(revision, spec);
  writeFileSync(changelogPath, changelog);
  const args = ['scripts/lint/check-compatibility.mjs', '--baseline', baseline, '--spec', revision, '--changelog', changelogPath];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 280_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const SNAP_RESPONSE_TAIL = "        secondary_profile_summary:\n          $ref: '#/components/schemas/NullableText'\n";

describe('check-compatibility (make lint)', () => {
  jest.setTimeout(300_000);

  test('when the spec is the release, then it passes', () => {
    const { status, output } = gate(SPEC, EMPTY_CHANGELOG);
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('(unchanged)') });
  });

  test('when an optional response field is added, with a changelog entry and a higher version, then it passes', () => {
    const additive = changed(SNAP_RESPONSE_TAIL, `${SNAP_RESPONSE_TAIL}        tone:\n          $ref: '#/components/schemas/NullableText'\n`);
    const { status, output } = gate(additive);
    console.log(`additive change:\n${output}`);
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('is compatible with release') });
  });

  test.each([
    ['a response field is removed', changed("        reasoning:\n          $ref: '#/components/schemas/NullableText'\n", ''), 'response-required-property-removed'],
    ['a request field becomes required', changed('      required: [name, notes]\n', '      required: [name, notes, jobType]\n'), 'request-property-became-required'],
    ['a request maximum is narrowed', changed('      minLength: 1\n      maxLength: 200\n', '      minLength: 1\n      maxLength: 100\n'), 'request-property-max-length-decreased'],
    ['a response enum gains a value', changed('enum: [Trailblazer, Challenger, Visionary,', 'enum: [Pioneer, Trailblazer, Challenger, Visionary,'), 'response-property-enum-value-added'],
    ['an error status is removed', changed("        '415':\n          $ref: '#/components/responses/UnsupportedMediaType'\n", ''), 'response-non-success-status-removed'],
    ['a success message changes', changed('const: Snap generated successfully', 'const: Snap created'), 'response-property-const-changed'],
    ['an error example text changes', changed('message: Snap not found\n', 'message: Snap was not found\n'), 'the fixed message text "Snap not found" is no longer documented'],
    ['a response object is closed', changed("    SnapResult:\n      description: A stored snap.\n      type: object\n      additionalProperties: true\n", "    SnapResult:\n      description: A stored snap.\n      type: object\n      additionalProperties: false\n"), 'SnapResult: a response object must have additionalProperties: true'],
  ])('when %s, then it fails and says why', (_name, spec, reason) => {
    const { status, output } = gate(spec);
    console.log(`deliberate break (${_name}):\n${output}`);
    expect({ status, output }).toEqual({ status: 1, output: expect.stringContaining(reason) });
  });

  const DEPRECATE = ['      operationId: createCommsAnalysis\n', '      operationId: createCommsAnalysis\n      deprecated: true\n'] as const;

  test('when an operation is deprecated with an x-sunset more than 180 days ahead, then it passes', () => {
    const sunset = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);
    const { status, output } = gate(changed(DEPRECATE[0], `${DEPRECATE[1]}      x-sunset: '${sunset}'\n`));
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('is compatible with release') });
  });

  test.each([
    ['without an x-sunset', changed(...DEPRECATE), 'api-deprecated-sunset-missing'],
    ['with an x-sunset less than 180 days ahead', changed(DEPRECATE[0], `${DEPRECATE[1]}      x-sunset: '${new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)}'\n`), 'api-sunset-date-too-small'],
  ])('when an operation is deprecated %s, then it fails', (_name, spec, reason) => {
    const { status, output } = gate(spec);
    expect({ status, output }).toEqual({ status: 1, output: expect.stringContaining(reason) });
  });

  test('when the spec changes and the changelog lists nothing under [Unreleased], then it fails', () => {
    const { status, output } = gate(changed(SNAP_RESPONSE_TAIL, `${SNAP_RESPONSE_TAIL}        tone:\n          $ref: '#/components/schemas/NullableText'\n`), EMPTY_CHANGELOG);
    expect({ status, output }).toEqual({ status: 1, output: expect.stringContaining('list the change under "## [Unreleased]"') });
  });

  test('when the spec changes and info.version stays the release version, then it fails', () => {
    const { status, output } = gate(SPEC.replace('message: Snap not found\n', 'message: Snap not found\n                x-note: same\n'));
    expect({ status, output }).toEqual({ status: 1, output: expect.stringContaining(`info.version (${VERSION}) must be higher`) });
  });
});
