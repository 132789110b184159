/**
 * Part of the image's build (Containerfile): fills Node's module compile cache, the
 * directory NODE_COMPILE_CACHE names, with the compiled code of everything a start can
 * load: every module of the service but its entry points (src/app/main.ts and these
 * commands), every production dependency, and what the service loads on first use. A pod then
 * starts without compiling them (docs/deploy.md, "The compile cache"). Node keeps one cache
 * per user id, so the image runs this as the user it runs as, at the paths it runs from.
 * Fails when the cache is not enabled, so that a build cannot ship without one unnoticed.
 *   NODE_COMPILE_CACHE=/app/compile-cache node dist/src/cli/prime-compile-cache.js
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/project-root';
import { deferredModuleIds } from '../support/on-first-use';

/** Node 22.1 and later (the image runs 24); the project's types are those of the oldest supported line. */
const { getCompileCacheDir, flushCompileCache } = nodeModule as typeof nodeModule & { getCompileCacheDir?: () => string | undefined; flushCompileCache?: () => void };

const cacheDir = getCompileCacheDir?.();
if (cacheDir === undefined || flushCompileCache === undefined) {
  process.stderr.write('prime-compile-cache: the compile cache is not enabled: run it on Node 22.1 or later with NODE_COMPILE_CACHE naming a directory this user can write\n');
  process.exit(1);
}

const serviceDir = join(PROJECT_ROOT, 'dist', 'src');
const entryPoints = (file: string) => file.startsWith('cli/') || file === join('app', 'main.js');
const requireFromRoot = nodeModule.createRequire(join(PROJECT_ROOT, 'package.json'));

const serviceModules = readdirSync(serviceDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js') && !entryPoints(file));
for (const file of serviceModules) requireFromRoot(join(serviceDir, file));
const dependencies = Object.keys((JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
const deferred = deferredModuleIds();
for (const id of [...dependencies, ...deferred]) requireFromRoot(id);

flushCompileCache();
process.stdout.write(`prime-compile-cache: ${serviceModules.length} modules of the service, ${dependencies.length} dependencies and ${deferred.length} loaded on first use, compiled into ${cacheDir}\n`);
process.exit(0);
