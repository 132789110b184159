/**
 * A library a synchronous caller loads the first time it needs it, not at start (an
 * asynchronous caller writes `await import(...)` instead): what the first paid call does not
 * use is not in the cold start (docs/benchmarking.md, "What it runs": cold start).
 */
import { createRequire } from 'node:module';

const requireHere = createRequire(__filename);

const deferred = new Set<string>();

/** `load()` requires `id` at its first call and returns the same module after that; `T` is its type (`typeof import(id)`). */
export function loadedOnFirstUse<T>(id: string): () => T {
  deferred.add(id);
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(id) as T);
}

/** The ids given to `loadedOnFirstUse` by the modules loaded so far: what the compile cache is filled with besides them (src/cli/prime-compile-cache.ts). */
export function deferredModuleIds(): readonly string[] {
  return [...deferred];
}
