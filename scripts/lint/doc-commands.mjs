#!/usr/bin/env node
// The shell commands of docs/deploy.md and docs/operations.md, which scripts run as written
// (issue 29: documented commands that failed). Each ```sh block carries a marker just above it:
//   <!-- commands: NAME, run by PATH -->          PATH runs the block, extracted from the doc
//   <!-- commands: NAME, not run here: REASON --> and why it cannot run on this machine
// Usage:
//   node scripts/lint/doc-commands.mjs --check [file.md ...]  (make lint) every block marked,
//       names unique, each runner exists and names the document, the block and this script
//   node scripts/lint/doc-commands.mjs FILE.md NAME            prints that block's commands
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DOCUMENTS = ['docs/deploy.md', 'docs/operations.md'];
const MARKER = /^<!-- commands: ([a-z0-9.-]+), (?:run by (\S+)|not run here: (.+?)) -->$/;

/** The shell blocks of a markdown text: { line, name?, runBy?, notRun?, body }. */
export function commandBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[index])) {
      if (/^```/.test(lines[index])) index = closingFence(lines, index);
      continue;
    }
    const end = closingFence(lines, index);
    const marker = MARKER.exec(lines[index - 1] ?? '');
    blocks.push({
      line: index + 1,
      name: marker?.[1],
      runBy: marker?.[2],
      notRun: marker?.[3],
      body: lines.slice(index + 1, end).join('\n'),
    });
    index = end;
  }
  return blocks;
}

function closingFence(lines, open) {
  for (let index = open + 1; index < lines.length; index += 1) if (/^```\s*$/.test(lines[index])) return index;
  return lines.length;
}

/** Problems of the markers in one document (path relative to the repository). */
export function markerProblems(path, markdown, readRunner = (file) => (existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : undefined)) {
  const problems = [];
  const seen = new Set();
  for (const block of commandBlocks(markdown)) {
    const where = `${path}:${block.line}`;
    if (!block.name) {
      problems.push(`${where}: a shell block without a "<!-- commands: NAME, run by PATH -->" or "<!-- commands: NAME, not run here: REASON -->" line above it`);
      continue;
    }
    if (seen.has(block.name)) problems.push(`${where}: the block name ${block.name} is used twice`);
    seen.add(block.name);
    if (!block.runBy) continue;
    const runner = readRunner(block.runBy);
    if (runner === undefined) problems.push(`${where}: ${block.name} is run by ${block.runBy}, which does not exist`);
    else if (!runner.includes('doc-commands.mjs') || !runner.includes(path) || !new RegExp(`(^|[\\s"'])${block.name.replaceAll('.', '\\.')}($|[\\s"'])`, 'm').test(runner))
      problems.push(`${where}: ${block.runBy} does not name ${path} and the block ${block.name} (it extracts it with scripts/lint/doc-commands.mjs)`);
  }
  return problems;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain && process.argv[2] === '--check') {
  const files = process.argv.length > 3 ? process.argv.slice(3) : DOCUMENTS;
  const problems = files.flatMap((file) => markerProblems(relative(root, resolve(file)), readFileSync(resolve(file), 'utf8')));
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  const blocks = files.flatMap((file) => commandBlocks(readFileSync(resolve(file), 'utf8')));
  console.log(`doc-commands: ${blocks.length} shell blocks in ${files.join(', ')}: ${blocks.filter((block) => block.runBy).length} run by scripts of make test, ${blocks.filter((block) => block.notRun).length} not runnable here (reason beside each)`);
} else if (isMain) {
  const [file, name] = process.argv.slice(2);
  const block = commandBlocks(readFileSync(resolve(file), 'utf8')).find((candidate) => candidate.name === name);
  if (!block) {
    console.error(`doc-commands: no block "${name}" in ${file}`);
    process.exit(1);
  }
  console.log(block.body);
}
