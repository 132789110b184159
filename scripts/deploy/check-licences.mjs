// Every component of a CycloneDX SBOM (npm sbom --omit=dev: the production tree) has a
// licence on the allow-list (deploy/licences-allowed.txt). An expression "A OR B" needs one
// allowed alternative, "A AND B" needs both; no licence at all is a failure. A package that
// states its licence only in the legacy `licenses` array of its package.json (which npm sbom
// does not read: busboy, streamsearch) is read from node_modules/ (run from the project root).
//   node scripts/deploy/check-licences.mjs SBOM.json [ALLOW-LIST]
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [sbomPath, allowPath = fileURLToPath(import.meta.resolve('../../deploy/licences-allowed.txt'))] = process.argv.slice(2);
if (!sbomPath) {
  process.stderr.write('usage: check-licences.mjs SBOM.json [ALLOW-LIST]\n');
  process.exit(2);
}
const allowed = new Set(
  readFileSync(allowPath, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean),
);
const sbom = JSON.parse(readFileSync(sbomPath, 'utf8'));

/** Whether an SPDX expression is satisfied by the allow-list (OR: any side, AND: both sides). */
function permitted(expression) {
  const text = expression.trim().replace(/^\((.*)\)$/, '$1').trim();
  const or = text.split(/\s+OR\s+/i);
  if (or.length > 1) return or.some(permitted);
  const and = text.split(/\s+AND\s+/i);
  if (and.length > 1) return and.every(permitted);
  return allowed.has(text);
}

/** The legacy `licenses: [{type}]` of the installed package.json, when there is one. */
function legacyLicences(name) {
  const manifest = `node_modules/${name}/package.json`;
  if (!existsSync(manifest)) return [];
  const { licenses } = JSON.parse(readFileSync(manifest, 'utf8'));
  return Array.isArray(licenses) ? licenses.map((entry) => entry?.type).filter((type) => typeof type === 'string') : [];
}

const problems = [];
for (const component of sbom.components ?? []) {
  const packageName = `${component.group ? `${component.group}/` : ''}${component.name}`;
  const name = `${packageName}@${component.version}`;
  const declared = (component.licenses ?? []).map((entry) => entry.expression ?? entry.license?.id ?? entry.license?.name).filter(Boolean);
  const licences = declared.length > 0 ? declared : legacyLicences(packageName);
  if (licences.length === 0) problems.push(`${name}: no licence declared`);
  else if (!licences.every(permitted)) problems.push(`${name}: ${licences.join(', ')} is not on the allow-list`);
}
if (problems.length > 0) {
  process.stderr.write(`licences: ${problems.length} production dependencies fail the allow-list:\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
console.log(`licences: all ${sbom.components?.length ?? 0} production dependencies are on the allow-list`);
