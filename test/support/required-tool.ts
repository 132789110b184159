/**
 * Tests that need a tool the project cannot install itself (e.g. Go): on a developer's
 * machine without it they are skipped and say so; in CI (`CI` set, as `.ci/run` does)
 * a missing tool is a failure, never a skip, so `make test` cannot go green without them.
 */

/** True when the environment says it is CI: `CI` set to anything but empty, `0` or `false`. */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

export interface RequiredTool {
  /** What the tests need, for the messages, e.g. "Go". */
  name: string;
  /** Whether it was found. */
  found: boolean;
  /** How to get it, for the messages. */
  install: string;
}

/**
 * `describe` for a block that needs `tool`: the block itself when the tool is there; a
 * block whose one test fails, naming the tool, when it is missing in CI; `describe.skip`
 * with a warning when it is missing elsewhere.
 */
export function describeNeeding(tool: RequiredTool, name: string, body: () => void, env: NodeJS.ProcessEnv = process.env): void {
  if (tool.found) {
    describe(name, body);
    return;
  }
  const missing = `${tool.name} is not installed (${tool.install})`;
  if (inCi(env)) {
    describe(name, () => {
      test(`needs ${tool.name}`, () => {
        throw new Error(`${missing}: in CI a missing tool is a failure, not a skip`);
      });
    });
    return;
  }
  console.warn(`${name}: ${missing}: these tests are SKIPPED here, and would fail in CI`);
  describe.skip(name, body);
}
