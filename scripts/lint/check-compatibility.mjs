// @ts-check
/**
 * `make lint`: the breaking-change gate (docs/compatibility.md). Compares the spec with the
 * spec of the last release and fails when the change could break a client written against
 * that release, or when the changelog does not say what changed.
 *
 *   1. The baseline: openapi/last-release.yaml, committed, so a clone without tags (a CI
 *      clone) still has it. Its `info.version` X names the release; where the clone has
 *      release tags, the newest `v*` tag must be `vX` and hold that very file as its
 *      openapi/openapi.yaml (a release that forgot to update the baseline fails here).
 *   2. oasdiff (pinned below, `go run` from the Go module proxy) `breaking`, failing on
 *      WARN and above. openapi/oasdiff-levels.txt (a format without comments) raises two
 *      checks oasdiff counts as INFO to errors, because this API documents every error
 *      status and header it answers and a client may rely on each: a removed error status
 *      (response-non-success-status-removed), a removed optional response header. A
 *      deprecation must carry `x-sunset` (a date) at least 180 days ahead, and a removal
 *      comes only after that date (--deprecation-days-stable).
 *   3. The fixed message texts: every `message` a response of the release documents (its
 *      examples, its `const`) is still documented for the same operation and status.
 *      oasdiff compares schemas, not examples, and the error texts live in examples.
 *   4. Responses stay open (`additionalProperties: true` on every response object, so a
 *      field can be added later; the one exception, the bare 401 body, says why in
 *      `x-closed`) and requests stay closed (`additionalProperties: false`).
 *   5. A spec that differs from the release has a higher `info.version`, and the
 *      changelog's `## [Unreleased]` section lists at least one change.
 *
 *   node scripts/lint/check-compatibility.mjs [--baseline F] [--spec F] [--changelog F]
 * The options exist for test/unit/scripts/check-compatibility.test.ts; the tag check runs
 * only on the default baseline.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { parse } from 'yaml';

export const OASDIFF = 'github.com/oasdiff/oasdiff@v1.36.0';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEFAULT_BASELINE = join(root, 'openapi/last-release.yaml');
const LEVELS = join(root, 'openapi/oasdiff-levels.txt');
/** The policy's minimum notice: a deprecated operation's `x-sunset` is at least this far from the change (oasdiff checks it). */
const DEPRECATION_DAYS = 180;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const { values: options } = parseArgs({
  options: {
    baseline: { type: 'string', default: DEFAULT_BASELINE },
    spec: { type: 'string', default: join(root, 'openapi/openapi.yaml') },
    changelog: { type: 'string', default: join(root, 'CHANGELOG.md') },
  },
});
const baselinePath = /** @type {string} */ (options.baseline);
const specPath = /** @type {string} */ (options.spec);
const changelogPath = /** @type {string} */ (options.changelog);

/** @type {string[]} */
const problems = [];
const baselineText = readFileSync(baselinePath, 'utf8');
const baseline = parse(baselineText);
const spec = parse(readFileSync(specPath, 'utf8'));
const released = String(baseline?.info?.version ?? '');

if (!parseVersion(released)) problems.push(`${show(baselinePath)}: info.version ${JSON.stringify(released)} is not MAJOR.MINOR.PATCH`);
if (baselinePath === DEFAULT_BASELINE) checkReleaseTags(released, baselineText);
checkBreakingChanges();
checkFixedTexts();
checkOpenness();
if (!isDeepStrictEqual(baseline, spec)) checkVersionAndChangelog();

if (problems.length > 0) {
  console.error(`check-compatibility: ${show(specPath)} against release ${released} (${show(baselinePath)}):`);
  for (const problem of problems) console.error(`  - ${problem}`);
  console.error('Within /api/v1 changes must be additive; a break needs a new path version (docs/compatibility.md).');
  process.exit(1);
}
console.log(`check-compatibility: ${show(specPath)} is compatible with release ${released}${isDeepStrictEqual(baseline, spec) ? ' (unchanged)' : ''}`);

/** @param {string} released @param {string} baselineText */
function checkReleaseTags(released, baselineText) {
  const tags = git(['tag', '--list', 'v*']);
  if (tags === undefined) return;
  const releases = tags.split('\n').filter((tag) => parseVersion(tag.slice(1)));
  if (releases.length === 0) {
    console.log(`check-compatibility: no release tag in this clone; the committed baseline stands for v${released}`);
    return;
  }
  const newest = releases.sort((a, b) => compareVersions(b.slice(1), a.slice(1)))[0];
  if (newest !== `v${released}`) {
    problems.push(`the newest release tag is ${newest}, but openapi/last-release.yaml is ${released}: git show ${newest}:openapi/openapi.yaml > openapi/last-release.yaml`);
    return;
  }
  const tagged = git(['show', `${newest}:openapi/openapi.yaml`]);
  if (tagged !== undefined && tagged !== baselineText) problems.push(`openapi/last-release.yaml is not the openapi/openapi.yaml of tag ${newest}`);
}

function checkBreakingChanges() {
  const env = { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/local/go/bin` };
  const args = ['run', OASDIFF, 'breaking', baselinePath, specPath, '--fail-on', 'WARN', '--severity-levels', LEVELS, '--deprecation-days-stable', String(DEPRECATION_DAYS), '--format', 'text', '--color', 'never'];
  const result = spawnSync('go', args, { encoding: 'utf8', env, maxBuffer: 16 * 1024 * 1024 });
  if (result.error) {
    problems.push(`cannot run go (${result.error.message}): Go runs oasdiff (${OASDIFF}); install Go (https://go.dev/dl/) into /usr/local/go or onto PATH`);
  } else if (result.status !== 0) {
    problems.push(`oasdiff breaking (${OASDIFF}) found breaking changes:\n${indent(result.stdout + result.stderr)}`);
  }
}

/** Every fixed message text of the release is still documented for its operation and status. */
function checkFixedTexts() {
  const now = new Set(fixedTexts(spec).map(({ where, text }) => `${where}\u0000${text}`));
  for (const { where, text } of fixedTexts(baseline)) {
    if (!now.has(`${where}\u0000${text}`)) problems.push(`${where}: the fixed message text ${JSON.stringify(text)} is no longer documented (a changed text breaks clients that match on it)`);
  }
}

function checkOpenness() {
  for (const { where, schema, side } of objectSchemas(spec)) {
    // A response object may stay closed only with its reason in `x-closed` (the bare 401 body).
    const want = side === 'response' && !(typeof schema['x-closed'] === 'string' && schema['x-closed'].trim() !== '');
    if (schema.additionalProperties !== want) {
      problems.push(`${where}: a ${side} object must have additionalProperties: ${want} (${want ? 'responses are open to additive change' : 'requests refuse unknown properties'})`);
    }
  }
}

function checkVersionAndChangelog() {
  const version = String(spec?.info?.version ?? '');
  if (!parseVersion(version) || compareVersions(version, released) <= 0) {
    problems.push(`the spec differs from release ${released}, so info.version (${version}) must be higher than ${released}`);
  }
  if (!existsSync(changelogPath)) {
    problems.push(`the spec differs from release ${released}, and there is no ${show(changelogPath)}`);
    return;
  }
  const unreleased = readFileSync(changelogPath, 'utf8').match(/^## \[Unreleased\][^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m);
  if (!unreleased || !/^\s*[-*] \S/m.test(unreleased[1] ?? '')) {
    problems.push(`the spec differs from release ${released}: list the change under "## [Unreleased]" in ${show(changelogPath)} (Keep a Changelog)`);
  }
}

/**
 * The message texts a document fixes, per operation and status: the `message` of every
 * example of a response, and every `const` of a response body's `message`.
 * @param {any} document @returns {{ where: string, text: string }[]}
 */
function fixedTexts(document) {
  const texts = [];
  for (const { where, response } of responses(document)) {
    for (const media of Object.values(response.content ?? {})) {
      for (const example of Object.values(/** @type {any} */ (media).examples ?? {})) {
        const message = resolve(document, example)?.value?.message;
        if (typeof message === 'string') texts.push({ where, text: message });
      }
      const message = resolve(document, resolve(document, /** @type {any} */ (media).schema)?.properties?.message);
      if (typeof message?.const === 'string') texts.push({ where, text: message.const });
    }
  }
  return texts;
}

/** @param {any} document @returns {{ where: string, response: any }[]} */
function responses(document) {
  const found = [];
  for (const [path, item] of Object.entries(document?.paths ?? {})) {
    for (const method of METHODS) {
      for (const [status, response] of Object.entries(item?.[method]?.responses ?? {})) {
        found.push({ where: `${method.toUpperCase()} ${path} ${status}`, response: resolve(document, response) });
      }
    }
  }
  return found;
}

/**
 * Every object schema with properties that a request body or a response body reaches.
 * @param {any} document @returns {{ where: string, schema: any, side: 'request' | 'response' }[]}
 */
function objectSchemas(document) {
  const found = [];
  /** @param {any} schema @param {string} where @param {'request' | 'response'} side @param {Set<any>} seen */
  const walk = (schema, where, side, seen) => {
    const name = typeof schema?.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : where;
    schema = resolve(document, schema);
    if (typeof schema !== 'object' || schema === null || seen.has(schema)) return;
    seen.add(schema);
    if (schema.properties) found.push({ where: name, schema, side });
    for (const child of [...Object.values(schema.properties ?? {}), schema.items, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
      if (child) walk(child, name, side, seen);
    }
  };
  for (const [path, item] of Object.entries(document?.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      for (const media of Object.values(resolve(document, operation?.requestBody)?.content ?? {})) walk(/** @type {any} */ (media).schema, `${method.toUpperCase()} ${path} request`, 'request', new Set());
    }
  }
  for (const { where, response } of responses(document)) {
    for (const media of Object.values(response?.content ?? {})) walk(/** @type {any} */ (media).schema, where, 'response', new Set());
  }
  return found.filter((entry, i) => found.findIndex((other) => other.schema === entry.schema && other.side === entry.side) === i);
}

/** @param {any} document @param {any} node */
function resolve(document, node) {
  let current = node;
  for (let hops = 0; typeof current?.$ref === 'string' && current.$ref.startsWith('#/') && hops < 32; hops += 1) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((/** @type {string} */ part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((/** @type {any} */ at, /** @type {string} */ key) => at?.[key], document);
  }
  return current;
}

/** @param {string} version */
function parseVersion(version) {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  return match ? match.slice(1).map(Number) : undefined;
}

/** @param {string} a @param {string} b */
function compareVersions(a, b) {
  const [x, y] = [parseVersion(a) ?? [], parseVersion(b) ?? []];
  for (let i = 0; i < 3; i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** @param {string[]} args */
function git(args) {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return result.status === 0 ? result.stdout : undefined;
}

/** @param {string} path */
function show(path) {
  const inside = relative(root, path);
  return inside.startsWith('..') ? path : inside;
}

/** @param {string} text */
function indent(text) {
  return text.trim().split('\n').map((line) => `      ${line}`).join('\n');
}
