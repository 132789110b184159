// @ts-check
/**
 * `make lint`: each spec must read the same under every mainstream YAML parser.
 *   1. The `yaml` package, YAML 1.2 strict (unique keys, pretty errors): any warning or error fails.
 *   2. No flow collection holds a plain scalar with `? : # [ ] { }` in it, and every
 *      `examples: [...]` flow sequence holds one example: an unquoted comma inside an example
 *      would otherwise split it into two, silently.
 *   3. PyYAML (a YAML 1.1 parser, in .venv) reads the same document as step 1.
 *   node scripts/lint/check-yaml.mjs openapi/openapi.yaml openapi/admin.yaml
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FLOW_UNSAFE = /[?:#[\]{}]/;

/** @param {string} file */
function strictDocument(file) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(join(root, file), 'utf8'), { version: '1.2', strict: true, uniqueKeys: true, prettyErrors: true, lineCounter });
  /** @param {{ range?: [number, number, number] | null }} node */
  const lineOf = (node) => lineCounter.linePos(node.range?.[0] ?? 0).line;
  const problems = [...doc.errors, ...doc.warnings].map((e) => `${file}: ${e.message}`);
  visit(doc, {
    Pair(_key, pair) {
      if (isScalar(pair.key) && pair.key.value === 'examples' && isSeq(pair.value) && pair.value.flow && pair.value.items.length !== 1) {
        problems.push(`${file}: line ${lineOf(pair.value)}: a flow sequence of examples holds ${pair.value.items.length} items: quote the example, or write the list in block style`);
      }
    },
    Scalar(_key, node, path) {
      const parent = path[path.length - 1];
      const collection = isPair(parent) ? path[path.length - 2] : parent;
      const inFlow = (isSeq(collection) || isMap(collection)) && collection.flow;
      if (inFlow && node.type === 'PLAIN' && typeof node.value === 'string' && FLOW_UNSAFE.test(node.value)) {
        problems.push(`${file}: line ${lineOf(node)}: the plain scalar ${JSON.stringify(node.value)} in a flow collection must be quoted`);
      }
    },
  });
  return { doc, problems };
}

/** @param {string} file */
function pyyamlDocument(file) {
  const python = join(root, '.venv', 'bin', 'python');
  const script = [
    'import json, sys, yaml',
    'try:',
    '    print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding="utf-8"))))',
    'except Exception as error:',
    '    sys.exit(str(error))',
  ].join('\n');
  const result = spawnSync(python, ['-c', script, join(root, file)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(result.error?.message ?? result.stderr.trim());
  return JSON.parse(result.stdout);
}

/**
 * The JSON pointer of the first place where two documents differ, or undefined.
 * @param {unknown} a @param {unknown} b @param {string} at
 * @returns {string | undefined}
 */
function firstDifference(a, b, at) {
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      // @ts-expect-error: indexing either kind of object
      const found = firstDifference(a[key], b[key], `${at}/${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : at;
}

const files = process.argv.slice(2);
const problems = [];
for (const file of files) {
  const strict = strictDocument(file);
  problems.push(...strict.problems);
  if (strict.doc.errors.length > 0) continue;
  let other;
  try {
    other = pyyamlDocument(file);
  } catch (error) {
    problems.push(`${file}: PyYAML cannot read it: ${error instanceof Error ? error.message : String(error)}`);
    continue;
  }
  const difference = firstDifference(strict.doc.toJS(), other, '');
  if (difference !== undefined) problems.push(`${file}: PyYAML reads another document than the YAML 1.2 parser, first at ${difference || '/'}`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
