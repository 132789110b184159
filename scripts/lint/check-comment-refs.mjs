#!/usr/bin/env node
// `make lint`: what a comment in src/ cites exists. A repository path (`docs/upstream.md`,
// `upstream/openai/retry-policy.ts`, `openapi/openapi.yaml`) names a file that is there; a
// section cited beside a markdown file (`docs/upstream.md, "Time budget"`, `README, "Try it"`,
// `docs/api.md#errors`) names one of its headings; and no comment cites a document that the
// repository does not hold (the design notes and the contract's numbered sections live
// outside it: cite `openapi/openapi.yaml` or a file in docs/ instead).
// Usage: node scripts/lint/check-comment-refs.mjs [dir ...] (default: src)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchors, slug } from './markdown-anchors.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ts = createRequire(import.meta.url)('typescript');
const dirs = process.argv.length > 2 ? process.argv.slice(2).map((dir) => resolve(dir)) : [join(root, 'src')];

const ABSENT_DOCUMENTS = [
  { pattern: /\bDESIGN\.md\b/, what: 'DESIGN.md is not in the repository' },
  { pattern: /\bcontract\s+§/, what: 'the contract\'s numbered sections are not in the repository' },
];
const BARE_NAME_CHECKED = /\.(?:md|ts|mjs|ya?ml|sh|py)$/;
const ABSENT_FILES = new Set(['DESIGN.md']);
/** A path with an extension of a file the repository could hold; URLs are removed first. */
const PATH = /(?<![\w@/.-])((?:\.{1,2}\/)?(?:[\w@.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:md|ts|mjs|cjs|js|json|ya?ml|sh|py|sql|hbs|toml))(?![\w/-])/g;
/** Where a path is not checked: build output and installed packages. */
const UNCHECKED = /^(?:dist|node_modules|\.data|test-output|\.services|\.cache)\//;
/** A section cited beside a markdown file or the README. */
const SECTION = /((?:[\w.-]+\/)*[\w.-]+\.md|README)(?:'s)?(?:,\s*|\s*\(\s*)"([^"]+)"|((?:[\w.-]+\/)*[\w.-]+\.md)#([\w-]+)/g;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The names of the repository's files, for a comment that names a file without its folder. */
const fileNames = new Set(execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').map((path) => basename(path)));

/** Each comment of a TypeScript file with the line it starts on. */
function comments(file) {
  const text = readFileSync(file, 'utf8');
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const found = [];
  // Open braces, and the template literals whose `${…}` is open: a `}` that closes one of
  // those is rescanned as the rest of the template, so its text is never read as code.
  const open = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      found.push({ text: scanner.getTokenText(), line: text.slice(0, scanner.getTokenPos()).split('\n').length });
    } else if (kind === ts.SyntaxKind.OpenBraceToken) {
      open.push('brace');
    } else if (kind === ts.SyntaxKind.TemplateHead) {
      open.push('template');
    } else if (kind === ts.SyntaxKind.CloseBraceToken && open.pop() === 'template') {
      if (scanner.reScanTemplateToken(false) === ts.SyntaxKind.TemplateMiddle) open.push('template');
    }
  }
  return found;
}

/** The file a cited path names, looked for from the repository's root, from src/ and beside the citing file. */
function resolves(path, citing) {
  if (UNCHECKED.test(path)) return true;
  const candidates = [join(root, path), join(root, 'src', path), resolve(dirname(citing), path)];
  if (candidates.some((candidate) => existsSync(candidate))) return true;
  // A name without a folder is checked only where it cannot be code (`express.json`, `index.js`).
  return !path.includes('/') && (!BARE_NAME_CHECKED.test(path) || fileNames.has(path));
}

function markdownFile(name, citing) {
  if (name === 'README' || name === 'README.md') return join(root, 'README.md');
  return [join(root, name), join(root, 'docs', name), resolve(dirname(citing), name)].find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

const problems = [];
for (const file of dirs.flatMap(sourceFiles)) {
  for (const comment of comments(file)) {
    const where = `${relative(root, file)}:${comment.line}`;
    const text = comment.text.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ').replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ');
    for (const { pattern, what } of ABSENT_DOCUMENTS) if (pattern.test(text)) problems.push(`${where}: ${what}`);
    for (const [, path] of text.matchAll(PATH)) if (!ABSENT_FILES.has(basename(path)) && !resolves(path, file)) problems.push(`${where}: \`${path}\`: no such file`);
    for (const [, document, heading, anchoredDocument, anchor] of text.matchAll(SECTION)) {
      const markdown = markdownFile(document ?? anchoredDocument, file);
      if (!markdown) continue; // the path check above reports it
      const wanted = anchor ?? slug(heading);
      if (!anchors(readFileSync(markdown, 'utf8')).has(wanted.toLowerCase())) {
        problems.push(`${where}: ${relative(root, markdown)} has no section "${heading ?? anchor}"`);
      }
    }
  }
}
if (problems.length > 0) {
  console.error(`check-comment-refs: ${problems.length} comment(s) cite what does not exist:\n${problems.join('\n')}`);
  process.exit(1);
}
