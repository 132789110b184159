#!/usr/bin/env node
// `make lint`: every relative link in README.md and docs/*.md resolves: the file exists,
// and an #anchor into a markdown file names one of its headings (GitHub's slugs). A path
// of the repository written as code (`src/http/app.ts`, `scripts/bench/`) must exist too,
// so a file that moves cannot leave the docs pointing at its old place.
// Usage: node scripts/lint/check-doc-links.mjs [file.md ...] (default: README.md docs/*.md)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchors } from './markdown-anchors.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const files =
  process.argv.length > 2
    ? process.argv.slice(2).map((file) => resolve(file))
    : [join(root, 'README.md'), ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join(root, 'docs', name))];

/** Paths of the repository written as inline code, e.g. `src/data/batcher.ts`; patterns (`*`, `…`, `<x>`) are not checked. */
const PATH_IN_CODE = /`((?:src|test|scripts|openapi|examples|generated|docs|\.ci)\/[^`\s*…<>{}]*)`/g;
function codePaths(markdown) {
  const found = [];
  markdown.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(PATH_IN_CODE)) found.push({ path: match[1].replace(/[:.,;)]+$/, ''), line: index + 1 });
  });
  return found;
}

/** Links outside code: inline `[text](target)` and reference `[label]: target`. */
function links(markdown) {
  const found = [];
  let fenced = false;
  markdown.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const text = line.replace(/`[^`]*`/g, (code) => (/^`[^`]*`$/.test(code) ? ' '.repeat(code.length) : code));
    for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: match[1], line: index + 1 });
    const reference = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(text);
    if (reference) found.push({ target: reference[1], line: index + 1 });
  });
  return found;
}

const problems = [];
for (const file of files) {
  const markdown = readFileSync(file, 'utf8');
  for (const { target, line } of links(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [path, anchor] = target.split('#', 2);
    const where = `${relative(root, file)}:${line}: ${target}`;
    const destination = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    if (path.startsWith('/') || !existsSync(destination)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor !== undefined && destination.endsWith('.md') && statSync(destination).isFile()) {
      if (!anchors(readFileSync(destination, 'utf8')).has(anchor.toLowerCase())) problems.push(`${where}: no heading with this anchor`);
    }
  }
  for (const { path, line } of codePaths(markdown)) {
    if (!existsSync(join(root, path))) problems.push(`${relative(root, file)}:${line}: \`${path}\`: no such file in the repository`);
  }
}
if (problems.length > 0) {
  console.error(`check-doc-links: ${problems.length} broken link(s) or path(s) in the docs:\n${problems.join('\n')}`);
  process.exit(1);
}
