// Every component of a CycloneDX SBOM has a licence the project allows. The image's SBOM
// (syft over the built image: scripts/image/build.sh) holds three kinds:
//  - npm packages (pkg:npm: the service's production tree and npm's own): a licence on the
//    allow-list (deploy/licences-allowed.txt). An expression "A OR B" needs one allowed
//    alternative, "A AND B" needs both; no licence at all is a failure. A package that
//    states its licence only in the legacy `licenses` array of its package.json (which
//    some SBOM tools do not read: busboy, streamsearch) is read from node_modules/ (run
//    from the project root).
//  - Debian packages (pkg:deb), from Debian's main archive (free software by its policy),
//    shipped as separate programs beside the service: each must carry its licence
//    record (its /usr/share/doc/<package>/copyright is kept in the image), and none may be
//    on the deny-list (deploy/licences-denied-os.txt: licences whose terms would reach
//    the service or its users over the network).
//  - Node itself (pkg:generic/node, found by syft's binary classifier, which reads no
//    licence): MIT, with the licences of what it bundles, in its LICENSE file, which
//    scripts/image/build.sh and test/image/image-contents.test.ts find in the image
//    (/usr/local/share/doc/node/LICENSE). MIT must be on the allow-list.
//   node scripts/deploy/check-licences.mjs SBOM.json [ALLOW-LIST] [OS-DENY-LIST]
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [
  sbomPath,
  allowPath = fileURLToPath(import.meta.resolve('../../deploy/licences-allowed.txt')),
  osDenyPath = fileURLToPath(import.meta.resolve('../../deploy/licences-denied-os.txt')),
] = process.argv.slice(2);
const NODE_LICENCE = 'MIT';
if (!sbomPath) {
  process.stderr.write('usage: check-licences.mjs SBOM.json [ALLOW-LIST]\n');
  process.exit(2);
}
/** @param {string} path */
const listIn = (path) =>
  new Set(
    readFileSync(path, 'utf8')
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean),
  );
const allowed = listIn(allowPath);
const osDenied = listIn(osDenyPath);
const sbom = JSON.parse(readFileSync(sbomPath, 'utf8'));

/** Spellings some packages use for an SPDX identifier (npm's bundled qrcode-terminal: "Apache 2.0"). */
const SPDX_SPELLINGS = new Map([['Apache 2.0', 'Apache-2.0']]);
/**
 * package.json files inside a package's own tests or demo apps (resolve's test/resolver/...,
 * tinyld's playground/ and tests-integration/): fixtures, not packages.
 */
const FIXTURE = /\/node_modules\/(?:@[^/]+\/)?[^/]+\/(?:test|tests|tests-integration|fixtures?|playground)\//;
/** The service itself (package.json's name): its licence is the project's own. */
const SELF = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('../../package.json')), 'utf8')).name;

/** Whether an SPDX expression is satisfied by the allow-list (OR: any side, AND: both sides). */
function permitted(expression) {
  const text = expression.trim().replace(/^\((.*)\)$/, '$1').trim();
  const or = text.split(/\s+OR\s+/i);
  if (or.length > 1) return or.some(permitted);
  const and = text.split(/\s+AND\s+/i);
  if (and.length > 1) return and.every(permitted);
  return allowed.has(SPDX_SPELLINGS.get(text) ?? text);
}

/** The legacy `licenses: [{type}]` of the installed package.json, when there is one. */
function legacyLicences(name) {
  const manifest = `node_modules/${name}/package.json`;
  if (!existsSync(manifest)) return [];
  const { licenses } = JSON.parse(readFileSync(manifest, 'utf8'));
  return Array.isArray(licenses) ? licenses.map((entry) => entry?.type).filter((type) => typeof type === 'string') : [];
}

const problems = [];
const counts = { npm: 0, deb: 0, node: 0 };
const components = sbom.components ?? [];
for (const component of components) {
  const purl = String(component.purl ?? '');
  const packageName = `${component.group ? `${component.group}/` : ''}${component.name}`;
  const name = `${packageName}@${component.version}`;
  const declared = (component.licenses ?? []).map((entry) => entry.expression ?? entry.license?.id ?? entry.license?.name).filter(Boolean);
  if (purl.startsWith('pkg:deb/')) {
    counts.deb += 1;
    const denied = declared.filter((licence) => osDenied.has(licence));
    if (declared.length === 0) problems.push(`${name} (Debian): no licence record`);
    else if (denied.length > 0) problems.push(`${name} (Debian): ${denied.join(', ')} is on the deny-list`);
  } else if (purl.startsWith('pkg:generic/node@')) {
    counts.node += 1;
    if (!permitted(NODE_LICENCE)) problems.push(`${name}: ${NODE_LICENCE} is not on the allow-list`);
  } else if (purl.startsWith('pkg:npm/') || !purl) {
    if (component.type === 'file' || component.type === 'operating-system' || component.name === SELF) continue;
    const locations = (component.properties ?? []).filter((property) => /^syft:location:\d+:path$/.test(property.name)).map((property) => property.value);
    if (locations.length > 0 && locations.every((path) => FIXTURE.test(path))) continue;
    counts.npm += 1;
    const licences = declared.length > 0 ? declared : legacyLicences(packageName);
    if (licences.length === 0) problems.push(`${name}: no licence declared`);
    else if (!licences.every(permitted)) problems.push(`${name}: ${licences.join(', ')} is not on the allow-list`);
  } else if (component.type !== 'file' && component.type !== 'operating-system') {
    problems.push(`${name} (${purl}): a kind of component this check has no rule for`);
  }
}
if (problems.length > 0) {
  process.stderr.write(`licences: ${problems.length} components fail their licence rule:\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
console.log(`licences: all ${counts.npm} npm packages on the allow-list, ${counts.deb} Debian packages with licence records and none denied, Node ${counts.node ? `(${NODE_LICENCE})` : 'absent'}`);
