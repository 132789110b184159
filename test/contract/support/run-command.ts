/** Runs a command of the contract tests in the project root, and throws with its output when it fails. */
import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from './live-service';

export function run(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 180_000): string {
  const result = spawnSync(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: timeoutMs });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}
