// @ts-check
/**
 * The image's SBOM is complete: it lists every production package of the lock file (each
 * `node_modules/...` entry npm installs with --omit=dev on linux-x64: not dev, not
 * devOptional, not an optional package for another platform) by name and version, at
 * least one Debian package, and Node at the version in .nvmrc. npm's own `npm sbom
 * --omit=dev` missed 63 of 166 (issue 29); syft over the built image (scripts/image/build.sh)
 * does not.
 *   node scripts/image/check-sbom.mjs SBOM.cdx.json package-lock.json [NODE-VERSION]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [sbomPath, lockPath, nodeVersion = readFileSync(fileURLToPath(import.meta.resolve('../../.nvmrc')), 'utf8').trim().replace(/^v/, '')] = process.argv.slice(2);
if (!sbomPath || !lockPath) {
  process.stderr.write('usage: check-sbom.mjs SBOM.cdx.json package-lock.json [NODE-VERSION]\n');
  process.exit(2);
}
const sbom = JSON.parse(readFileSync(sbomPath, 'utf8'));
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));

/** @param {string[] | undefined} allowed @param {string} value */
function fits(allowed, value) {
  if (!allowed || allowed.length === 0) return true;
  const denied = allowed.filter((entry) => entry.startsWith('!')).map((entry) => entry.slice(1));
  if (denied.includes(value)) return false;
  const wanted = allowed.filter((entry) => !entry.startsWith('!'));
  return wanted.length === 0 || wanted.includes(value);
}

/** @type {Map<string, string>} name@version -> lock-file path */
const production = new Map();
for (const [path, entry] of Object.entries(lock.packages ?? {})) {
  if (!path.startsWith('node_modules/') && !path.includes('/node_modules/')) continue;
  if (entry.dev || entry.devOptional || entry.link) continue;
  if (entry.optional && !(fits(entry.os, 'linux') && fits(entry.cpu, 'x64'))) continue;
  const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  production.set(`${name}@${entry.version}`, path);
}

/** @type {any[]} */
const components = sbom.components ?? [];
const listed = new Set();
for (const component of components) {
  const purl = String(component.purl ?? '');
  if (!purl.startsWith('pkg:npm/')) continue;
  const [name, version] = decodeURIComponent(purl.slice('pkg:npm/'.length).split('?')[0] ?? '').split(/@(?=[^@]*$)/);
  listed.add(`${name}@${version}`);
}
const missing = [...production.keys()].filter((key) => !listed.has(key)).sort();
const problems = missing.map((key) => `npm package ${key} (${production.get(key)}) is not in the SBOM`);
const debian = components.filter((component) => String(component.purl ?? '').startsWith('pkg:deb/'));
if (debian.length === 0) problems.push('no Debian package is in the SBOM');
const node = components.find((component) => component.name === 'node' && !String(component.purl ?? '').startsWith('pkg:npm/'));
if (!node) problems.push('Node itself is not in the SBOM');
else if (node.version !== nodeVersion) problems.push(`the SBOM lists Node ${node.version}, not ${nodeVersion} (.nvmrc)`);

if (problems.length > 0) {
  process.stderr.write(`sbom (${sbomPath}): ${problems.length} problems (${missing.length} of ${production.size} production packages missing):\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
console.log(`sbom (${sbomPath}): all ${production.size} production packages of the lock file, ${debian.length} Debian packages and Node ${nodeVersion}`);
